"""A model call's failure on a Ray worker, raised in the driver as the same exception.

The driver's call path decides by the exception what a failure means (a 429 pauses and is
retried, a 401 is refused in one sentence: `llm.call_errors`). A worker returns its failure
rather than raising it (Ray would wrap it); openai's exceptions do not survive pickling (their
response is a keyword-only argument), so for those it sends the parts (`Failure`) and the
driver builds the exception of the same class again.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

# The request a rebuilt exception names: the worker's own stays on the worker.
REMOTE_URL = "http://ray-worker/v1/chat/completions"


@dataclass(frozen=True)
class Failure:
    """What a worker sends of an exception that does not pickle."""

    kind: type[BaseException]
    message: str
    status_code: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None


def portable(exc: Exception) -> Exception | Failure:
    """`exc` itself when it survives pickling, else its `Failure`."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        response = getattr(exc, "response", None)
        return Failure(type(exc), str(getattr(exc, "message", exc)),
                       getattr(exc, "status_code", None),
                       dict(getattr(response, "headers", None) or {}), getattr(exc, "body", None))
    return exc


def restored(exc: Exception | Failure) -> Exception:
    """The exception a worker raised, as the driver's call path would have met it."""
    if not isinstance(exc, Failure):
        return exc
    import httpx2
    import openai

    request = httpx2.Request("POST", REMOTE_URL)
    if issubclass(exc.kind, openai.APIStatusError) and exc.status_code is not None:
        response = httpx2.Response(exc.status_code, headers=exc.headers, request=request)
        return exc.kind(exc.message, response=response, body=exc.body)
    if issubclass(exc.kind, openai.APITimeoutError):
        return exc.kind(request=request)
    if issubclass(exc.kind, openai.APIConnectionError):
        return exc.kind(message=exc.message, request=request)
    return RuntimeError(f"{exc.kind.__name__} on a Ray worker: {exc.message}")
