"""Over HTTP: undecodable text is a 400 sentence, and a crash (500) keeps the connection."""

from __future__ import annotations

import json
import socket
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from graphrag_neo4j.engine import GraphRAG

pytestmark = pytest.mark.integration
SURROGATE = '"hi \\ud800 there"'  # a JSON escape of a lone surrogate: valid JSON, not UTF-8
# Each body below has BAD where the surrogate goes.


@pytest.mark.parametrize(("path", "body"), [
    ("/v1/query", '{"question": BAD}'),
    ("/v1/query", '{"question": "Who?", "options": {"response_type": BAD}}'),
    ("/v1/query", '{"question": BAD, "stream": true}'),
    ("/v1/chat/completions",
     '{"model": "graphrag-local", "messages": [{"role": "user", "content": BAD}]}'),
    ("/v1/chat/completions", '{"model": "graphrag-local", "stream": true, "messages":'
     ' [{"role": "user", "content": BAD}]}'),
    ("/v1/chat/completions", '{"model": "graphrag-local", "messages": [{"role": "user",'
     ' "content": BAD}, {"role": "user", "content": "Who?"}]}'),
])
def test_a_lone_surrogate_is_a_400_sentence(api_url: str, path: str, body: str) -> None:
    sent = body.replace("BAD", SURROGATE).encode()
    response = httpx.post(f"{api_url}{path}", content=sent, timeout=30,
                          headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text[:300]
    assert "is not valid UTF-8 text (the lone surrogate \\ud800" in \
        response.json()["error"]["message"]


def _exchange(sock: socket.socket, host: str, path: str, body: bytes) -> tuple[int, bytes]:
    """One HTTP/1.1 POST on an open connection: the status and the raw reply."""
    sock.sendall(b"POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n%s" % (path.encode(), host.encode(), len(body), body))
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += sock.recv(65536) or b"<closed>"
        assert not reply.endswith(b"<closed>"), reply
    head, rest = reply.split(b"\r\n\r\n", 1)
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length")))
    while len(rest) < length:
        rest += sock.recv(65536)
    return int(head.split(b" ")[1]), head


def test_a_crash_is_a_500_that_keeps_the_connection(
    api_url: str, served_rag: GraphRAG, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 500 is the server's fault; the client may still reuse its keep-alive connection."""
    async def crash(*_: Any, **__: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(served_rag, "aquery", crash)
    address = urlsplit(api_url)
    body = json.dumps({"question": "Who taught Euler?", "method": "local"}).encode()
    with socket.create_connection((address.hostname, address.port), timeout=30) as sock:
        status, head = _exchange(sock, address.netloc, "/v1/query", body)
        assert status == 500 and b"connection: close" not in head.lower()
        status, _ = _exchange(sock, address.netloc, "/v1/query", body)
        assert status == 500  # the same connection answered again
