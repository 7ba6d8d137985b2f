"""The API key check (constant time) and the rule that only loopback may run without a key."""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import SecretStr
from starlette.exceptions import HTTPException

from graphrag_neo4j.errors import ConfigError

_bearer = HTTPBearer(auto_error=False, description="The server's api_key setting.")
KeyCheck = Callable[[HTTPAuthorizationCredentials | None], Awaitable[None]]


def is_loopback(host: str) -> bool:
    """Whether `host` is reachable from this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, api_key: SecretStr | None) -> None:
    """Refuse to listen beyond this machine without an API key."""
    if not is_loopback(host) and not (api_key and api_key.get_secret_value()):
        raise ConfigError(
            f"Refusing to listen on {host} without an API key: set GRAPHRAG_SERVER__API_KEY"
            " (or server.api_key in graphrag.toml), or listen on 127.0.0.1."
        )


def key_check(api_key: SecretStr | None) -> KeyCheck:
    """A dependency that requires `Authorization: Bearer KEY` when a key is configured."""
    expected = api_key.get_secret_value().encode() if api_key else b""

    async def require_key(
        credentials: HTTPAuthorizationCredentials | None = Depends(_bearer),  # noqa: B008
    ) -> None:
        if not expected:
            return
        given = credentials.credentials.encode() if credentials else b""
        # compare_digest takes the same time wherever the first difference is.
        if not hmac.compare_digest(given, expected):
            reason = "is wrong" if credentials else "is missing"
            raise HTTPException(
                401,
                f"The API key {reason}: send it as the header `Authorization: Bearer KEY`.",
                headers={"WWW-Authenticate": "Bearer"},
            )

    return require_key
