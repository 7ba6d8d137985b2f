"""An OpenAI-compatible HTTP server on loopback that answers from a script, for fault tests.

Each request to /v1/chat/completions takes the next step of the script (the last step
repeats): `Reply(text)` answers (as SSE chunks when the request streams), `Status(code)` fails
with that HTTP status (429 carries `Retry-After: 0`), `Slow(seconds, text)` answers late, and
`Malformed()` sends a 200 whose body is not JSON. Every request is recorded.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    text: str


@dataclass(frozen=True)
class Status:
    code: int


@dataclass(frozen=True)
class Slow:
    seconds: float
    text: str = "late"


@dataclass(frozen=True)
class Malformed:
    body: bytes = b"<html>502 from a proxy, not JSON</html>"


Step = Reply | Status | Slow | Malformed


@dataclass
class FakeOpenAI:
    """The script, the requests seen so far, and the base URL once serving."""

    script: list[Step]
    requests: list[dict[str, Any]] = field(default_factory=list)
    base_url: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def next_step(self, body: dict[str, Any]) -> Step:
        with self._lock:
            self.requests.append(body)
            index = min(len(self.requests) - 1, len(self.script) - 1)
            return self.script[index]


def _completion(text: str) -> dict[str, Any]:
    return {
        "id": "fake", "object": "chat.completion", "created": 0, "model": "fake-model",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
    }  # fmt: skip


def _chunks(text: str) -> Iterator[bytes]:
    for piece in (text[i : i + 40] for i in range(0, len(text), 40)):
        delta = {"id": "fake", "object": "chat.completion.chunk", "created": 0,
                 "model": "fake-model",
                 "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
        yield b"data: " + json.dumps(delta).encode() + b"\n\n"
    end = {"id": "fake", "object": "chat.completion.chunk", "created": 0, "model": "fake-model",
           "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    yield b"data: " + json.dumps(end).encode() + b"\n\ndata: [DONE]\n\n"


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: object) -> None:  # keep test output quiet
            return

        def do_POST(self) -> None:
            try:
                self._respond()
            except (BrokenPipeError, ConnectionResetError):
                return  # the client gave up waiting (the Slow step): nothing to answer

        def _respond(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            step = fake.next_step(body)
            if isinstance(step, Status):
                self._send(step.code, json.dumps({"error": {"message": f"scripted {step.code}"}})
                           .encode(), {"Retry-After": "0"} if step.code == 429 else {})
                return
            if isinstance(step, Malformed):
                self._send(200, step.body, {"Content-Type": "application/json"})
                return
            if isinstance(step, Slow):
                time.sleep(step.seconds)
            self._answer(step.text, bool(body.get("stream")))

        def _answer(self, text: str, stream: bool) -> None:
            if not stream:
                self._send(200, json.dumps(_completion(text)).encode(), {})
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for chunk in _chunks(text):
                self.wfile.write(chunk)
            self.wfile.flush()

        def _send(self, code: int, payload: bytes, headers: dict[str, str]) -> None:
            self.send_response(code)
            self.send_header("Content-Type", headers.pop("Content-Type", "application/json"))
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler


@contextmanager
def serving(script: list[Step]) -> Iterator[FakeOpenAI]:
    """Serve the script on 127.0.0.1 (a free port) for the block."""
    fake = FakeOpenAI(script)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    fake.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
