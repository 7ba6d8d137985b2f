"""The local server's password: the configured one, else one generated on first start.

A published default password lets any process (or web page, through the HTTP API) that
guesses it drive the database, so none exists: when `neo4j.password` is unset, the first
`neo4j start` generates a random one and keeps it user-only in `<home>/password`, where
`Settings.neo4j.secret()` reads it back. It is never printed or logged.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from graphrag_neo4j.runtime.resources import write_private
from graphrag_neo4j.settings import PASSWORD_FILE_NAME

GENERATED_BYTES = 24  # 32 URL-safe characters


def password_file(home: Path) -> Path:
    """Where a generated password is kept."""
    return home / PASSWORD_FILE_NAME


def stored_password(home: Path) -> str:
    """The password generated for this home earlier, or ""."""
    path = password_file(home)
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""


def ensure_password(home: Path, configured: str) -> tuple[str, bool]:
    """The password to start with and whether it was generated just now.

    A configured password always wins; otherwise the stored one; otherwise a new random one,
    written user-only before the server ever sees it.
    """
    if configured:
        return configured, False
    stored = stored_password(home)
    if stored:
        return stored, False
    generated = secrets.token_urlsafe(GENERATED_BYTES)
    write_private(password_file(home), generated + "\n")
    return generated, True
