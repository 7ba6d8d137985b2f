"""Server-sent events: one `event:`/`data:` frame per message, JSON data on one line."""

from __future__ import annotations

import json
from typing import Any

SSE_MEDIA_TYPE = "text/event-stream"
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def sse_frame(data: Any, event: str | None = None) -> bytes:
    """One SSE frame; `data` is JSON-encoded unless it is already a string (e.g. `[DONE]`)."""
    payload = data if isinstance(data, str) else json.dumps(data, default=str)
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n".encode()
