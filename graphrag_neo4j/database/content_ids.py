"""Stable ids from content: the same input always gets the same id, in every room."""

from __future__ import annotations

import hashlib


def content_id(*parts: str) -> str:
    """A stable 16-hex-digit id from content, so the same input always gets the same id."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8"))
    return digest.hexdigest()[:16]
