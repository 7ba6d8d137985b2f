"""Exact prompt-token counts of the local llama.cpp model: its chat template and tokenizer."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def _post(base_url: str, api_key: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base_url.rstrip("/") + path, data=json.dumps(body).encode("utf-8"),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"},
    )
    # The embedded server listens on loopback only, so nothing leaves the machine.
    with urllib.request.urlopen(request, timeout=60) as response:
        return dict(json.loads(response.read()))


def count_chat_tokens(base_url: str, api_key: str, messages: list[dict[str, str]]) -> int:
    """The prompt tokens llama.cpp reports for these messages: template applied, tokenized."""
    prompt = _post(base_url, api_key, "/apply-template", {"messages": messages})["prompt"]
    tokens = _post(base_url, api_key, "/tokenize", {"content": prompt, "add_special": True})
    return len(tokens["tokens"])
