"""Where a request comes from: the Host it names (against DNS rebinding) and, for writes, the
web page that sent it (against cross-site requests a browser sends without asking first)."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphrag_neo4j.api.errors import send_error
from graphrag_neo4j.api.guards.security import is_loopback

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# A browser sends these cross-site only after a CORS preflight, which this server never grants.
BODY_TYPES = ("application/json", "multipart/form-data")
_PASSED = "graphrag.host_ok"


def allowed_hosts(bound: str, extra: Sequence[str]) -> list[str]:
    """The Host names a request may carry: loopback names on a loopback bind, the bound address
    otherwise (any name on a wildcard bind, which needs a key), plus `extra`."""
    if is_loopback(bound):
        own = [*LOOPBACK_NAMES, bound]
    elif bound in ("0.0.0.0", "::", ""):
        own = [] if extra else ["*"]
    else:
        own = [bound]
    bracketed = [f"[{h}]" if ":" in h and not h.startswith("[") else h for h in [*own, *extra]]
    return list(dict.fromkeys(host.lower() for host in bracketed))


async def _swallow(_: Message) -> None:
    """Drops the library's plain-text refusal; ours is JSON."""


async def _mark_passed(scope: Scope, _: Receive, __: Send) -> None:
    scope[_PASSED] = True


class TrustedHosts:
    """Starlette's TrustedHostMiddleware (it parses and matches the header), answering in the
    API's JSON error shape."""

    def __init__(self, app: ASGIApp, allowed: Sequence[str]) -> None:
        self.app = app
        self.allowed = allowed
        self.checker = TrustedHostMiddleware(_mark_passed, allowed_hosts=allowed,
                                             www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.checker(scope, receive, _swallow)
            if not scope.pop(_PASSED, False):
                host = Headers(scope=scope).get("host", "")
                await send_error(
                    send, 400,
                    f"The Host header {host!r} is not an address of this server; add the name to"
                    " server.allowed_hosts if clients reach the server by it.",
                )
                return
        await self.app(scope, receive, send)


def _same_origin(origin: str, host: str | None) -> bool:
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == (
        host or "").lower()


def write_problem(method: str, headers: Headers) -> tuple[int, str] | None:
    """The status and sentence refusing a state-changing request (another site's page: 403, a
    body type a form can send: 415), or None."""
    if method not in WRITE_METHODS:
        return None
    origin = headers.get("origin")
    if origin is not None and not _same_origin(origin, headers.get("host")):
        return 403, (f"Requests sent by the web page at {origin!r} may not change anything"
                     " here; call the API from a program or from a page this server serves.")
    media_type = headers.get("content-type", "").split(";")[0].strip().lower()
    if method != "DELETE" and media_type not in BODY_TYPES:
        return 415, (f"The body type {media_type or 'none'!r} is not accepted: send"
                     " `Content-Type: application/json` (or a multipart/form-data upload).")
    return None


class SameOriginWrites:
    """Refuses writes from other sites' pages (a mismatched Origin) and bodies in types a page
    can send without a preflight (text/plain, url-encoded forms)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = write_problem(scope["method"], Headers(scope=scope))
            if refused:
                await send_error(send, *refused)
                return
        await self.app(scope, receive, send)
