"""The API key check (constant time, before the body is read) and the bind rule: only loopback
may run without a key, and a key off loopback must be long enough to resist guessing."""

from __future__ import annotations

import hmac
import ipaddress
import time
from collections import deque
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from math import ceil

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import SecretStr
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from graphrag_neo4j.api.errors import send_error
from graphrag_neo4j.database.workspaces.keys import KeyFile
from graphrag_neo4j.runtime.errors import ConfigError

MIN_KEY_CHARS = 16
# Routes anyone may read: the health check and the API's own documentation.
OPEN_PATHS = frozenset({"/health", "/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})
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
    """Refuse to listen beyond this machine without an API key of at least MIN_KEY_CHARS."""
    if is_loopback(host):
        return
    key = api_key.get_secret_value() if api_key else ""
    if not key:
        raise ConfigError(
            f"Refusing to listen on {host} without an API key: set GRAPHRAG_SERVER__API_KEY"
            " (or server.api_key in graphrag.toml), or listen on 127.0.0.1."
        )
    if len(key) < MIN_KEY_CHARS:
        raise ConfigError(
            f"Refusing to listen on {host} with an API key of {len(key)} characters: use at"
            f" least {MIN_KEY_CHARS} random ones (e.g. `openssl rand -hex 24`), or listen on"
            " 127.0.0.1."
        )


@dataclass(frozen=True)
class Access:
    """What a request's key opens: the server's key is the admin's (the server's own
    workspace, and the admin routes); a workspace key opens its workspace only."""

    admin: bool
    workspace: str | None = None  # None: the workspace the server was started in


ADMIN = Access(admin=True)
ACCESS_KEY = "graphrag_access"  # where the gate leaves a request's Access in its scope state


def key_access(
    authorization: str | None, expected: bytes, keys: KeyFile | None = None
) -> Access | str:
    """What the `Authorization` header's key opens, or why it opens nothing."""
    if not expected:
        return ADMIN
    scheme, _, given = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        return "The API key is missing: send it as the header `Authorization: Bearer KEY`."
    # compare_digest takes the same time wherever the first difference is.
    if hmac.compare_digest(given.strip().encode(), expected):
        return ADMIN
    bound = keys.find(given.strip()) if keys is not None else None
    if bound is not None:
        return Access(admin=False, workspace=bound.workspace)
    return "The API key is wrong: send it as the header `Authorization: Bearer KEY`."



def _expected(api_key: SecretStr | None) -> bytes:
    return api_key.get_secret_value().encode() if api_key else b""


class FailedKeys:
    """Wrong or missing keys per client address: past `limit` within `window_s`, the client is
    refused until its oldest failure leaves the window, so a key cannot be guessed at the
    speed of the network. At most `clients` addresses are remembered (the oldest go first)."""

    def __init__(self, limit: int = 10, window_s: float = 60.0, clients: int = 10_000) -> None:
        self.limit = limit
        self.window_s = window_s
        self.clients = clients
        self._failures: dict[str, deque[float]] = {}

    def retry_after(self, client: str) -> float | None:
        """Seconds until `client` may try again, or None when it may now."""
        times = self._recent(client)
        if len(times) < self.limit:
            return None
        return times[0] + self.window_s - time.monotonic()

    def failed(self, client: str) -> None:
        """Count one wrong or missing key of `client`."""
        times = self._recent(client)
        times.append(time.monotonic())
        self._failures.pop(client, None)
        self._failures[client] = times  # the most recent client last
        while len(self._failures) > self.clients:
            self._failures.pop(next(iter(self._failures)))

    def _recent(self, client: str) -> deque[float]:
        times = self._failures.get(client, deque())
        while times and times[0] <= time.monotonic() - self.window_s:
            times.popleft()
        return times


class KeyGate:
    """Refuses a request without the key from its headers alone, before its body is read or a
    concurrency slot is taken (so clients without the key cannot hold the server's slots); a
    client that sent too many wrong keys is refused (429) before its key is even compared."""

    def __init__(self, app: ASGIApp, api_key: SecretStr | None,
                 open_paths: Collection[str] = OPEN_PATHS, keys: KeyFile | None = None) -> None:
        self.app = app
        self.expected = _expected(api_key)
        self.keys = keys
        self.open_paths = open_paths
        self.failed_keys = FailedKeys()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.expected and scope["type"] == "http" and scope["path"] not in self.open_paths:
            client = (scope.get("client") or ("unknown",))[0]
            wait = self.failed_keys.retry_after(client)
            if wait is not None:
                await send_error(send, 429, f"Too many wrong API keys from {client}; retry in"
                                 f" {ceil(wait)} s with the right key.",
                                 {"Retry-After": str(ceil(wait))})
                return
            access = key_access(Headers(scope=scope).get("authorization"), self.expected,
                                self.keys)
            if isinstance(access, str):
                self.failed_keys.failed(client)
                await send_error(send, 401, access, {"WWW-Authenticate": "Bearer"})
                return
            scope.setdefault("state", {})[ACCESS_KEY] = access
        await self.app(scope, receive, send)


def key_check(api_key: SecretStr | None, keys: KeyFile | None = None) -> KeyCheck:
    """A dependency requiring `Authorization: Bearer KEY` when a key is configured (KeyGate
    checks first; this one puts the scheme in the OpenAPI page and guards routers mounted
    without the gate)."""
    expected = _expected(api_key)

    async def require_key(
        credentials: HTTPAuthorizationCredentials | None = Depends(_bearer),  # noqa: B008
    ) -> None:
        header = f"Bearer {credentials.credentials}" if credentials else None
        access = key_access(header, expected, keys)
        if isinstance(access, str):
            raise HTTPException(401, access, headers={"WWW-Authenticate": "Bearer"})

    return require_key
