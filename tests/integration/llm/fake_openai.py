"""An OpenAI-compatible HTTP server on loopback that answers from a script, for fault tests.

Each request to /v1/chat/completions takes the next step of the script (the last step
repeats): `Reply(text)` answers (as SSE chunks when the request streams), `Status(code)` fails
with that HTTP status (a 429 carries its `Retry-After`, 0 unless given), `Slow(seconds, text)`
answers late, and `Malformed()` sends a 200 whose body is not JSON. `serving_answers(answer)`
instead replies to each prompt with `answer(prompt)` (e.g. `pipeline_fake_llm().answer`, for a
whole index run).
Usage is reported like OpenAI does: in the reply, and in a last streamed chunk only when the
request asks for it (`stream_options.include_usage`). /v1/embeddings answers with
`FakeEmbeddings` vectors. Every chat request is recorded, with when it came (`times`).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from graphrag_neo4j.llm.testing import FakeEmbeddings


@dataclass(frozen=True)
class Reply:
    text: str


@dataclass(frozen=True)
class Status:
    code: int
    retry_after: str = "0"


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
    answer: Callable[[str], str] | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  # time.monotonic() of each request
    embedded_texts: int = 0
    base_url: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def next_step(self, body: dict[str, Any]) -> Step:
        with self._lock:
            self.requests.append(body)
            self.times.append(time.monotonic())
            if self.answer is not None:
                return Reply(self.answer(_prompt(body)))
            index = min(len(self.requests) - 1, len(self.script) - 1)
            return self.script[index]


def _prompt(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []))


_USAGE = {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}


def _completion(text: str) -> dict[str, Any]:
    return {
        "id": "fake", "object": "chat.completion", "created": 0, "model": "fake-model",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": text}}],
        "usage": _USAGE,
    }  # fmt: skip


def _chunks(text: str, with_usage: bool) -> Iterator[bytes]:
    for piece in (text[i : i + 40] for i in range(0, len(text), 40)):
        delta = {"id": "fake", "object": "chat.completion.chunk", "created": 0,
                 "model": "fake-model",
                 "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
        yield b"data: " + json.dumps(delta).encode() + b"\n\n"
    end = {"id": "fake", "object": "chat.completion.chunk", "created": 0, "model": "fake-model",
           "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    yield b"data: " + json.dumps(end).encode() + b"\n\n"
    if with_usage:
        usage = {"id": "fake", "object": "chat.completion.chunk", "created": 0,
                 "model": "fake-model", "choices": [], "usage": _USAGE}
        yield b"data: " + json.dumps(usage).encode() + b"\n\n"
    yield b"data: [DONE]\n\n"


def _embeddings(fake: FakeOpenAI, body: dict[str, Any]) -> dict[str, Any]:
    texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
    with fake._lock:
        fake.embedded_texts += len(texts)
    vectors = FakeEmbeddings(EMBEDDING_DIMENSION).embed_documents([str(t) for t in texts])
    return {"object": "list", "model": body.get("model", "fake-embedder"),
            "data": [{"object": "embedding", "index": i, "embedding": v}
                     for i, v in enumerate(vectors)],
            "usage": {"prompt_tokens": len(texts), "total_tokens": len(texts)}}


EMBEDDING_DIMENSION = 384  # the size every other test indexes with


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # Keep-alive, like real servers: a client's pooled connections outlive one call.
        protocol_version = "HTTP/1.1"

        def log_message(self, *_: object) -> None:  # keep test output quiet
            return

        def handle(self) -> None:
            try:
                super().handle()
            except ConnectionResetError:
                return  # a client closed its pooled connection: nothing more will come

        def do_POST(self) -> None:
            try:
                self._respond()
            except (BrokenPipeError, ConnectionResetError):
                return  # the client gave up waiting (the Slow step): nothing to answer

        def _respond(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            if self.path.endswith("/embeddings"):
                self._send(200, json.dumps(_embeddings(fake, body)).encode(), {})
                return
            step = fake.next_step(body)
            if isinstance(step, Status):
                self._send(step.code, json.dumps({"error": {"message": f"scripted {step.code}"}})
                           .encode(), {"Retry-After": step.retry_after} if step.code == 429 else {})
                return
            if isinstance(step, Malformed):
                self._send(200, step.body, {"Content-Type": "application/json"})
                return
            if isinstance(step, Slow):
                time.sleep(step.seconds)
            with_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            self._answer(step.text, bool(body.get("stream")), with_usage)

        def _answer(self, text: str, stream: bool, with_usage: bool) -> None:
            if not stream:
                self._send(200, json.dumps(_completion(text)).encode(), {})
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for chunk in _chunks(text, with_usage):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
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


def serving_answers(answer: Callable[[str], str]) -> Any:
    """Serve `answer(prompt)` for every chat request on 127.0.0.1 (a free port) for the block."""
    return serving([], answer)


@contextmanager
def serving(script: list[Step], answer: Callable[[str], str] | None = None
            ) -> Iterator[FakeOpenAI]:
    """Serve the script on 127.0.0.1 (a free port) for the block."""
    fake = FakeOpenAI(script, answer)
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


def hosted_env(base_url: str, cache: Path) -> dict[str, str]:
    """The environment of a CLI process whose LLM and embedder are the fake at `base_url`."""
    hosted = {
        "GRAPHRAG_LLM__PROVIDER": "openai", "GRAPHRAG_LLM__BASE_URL": base_url,
        "GRAPHRAG_LLM__API_KEY": "fake-key", "GRAPHRAG_LLM__MODEL": "fake-model",
        "GRAPHRAG_EMBEDDING__PROVIDER": "openai", "GRAPHRAG_EMBEDDING__BASE_URL": base_url,
        "GRAPHRAG_EMBEDDING__API_KEY": "fake-key", "GRAPHRAG_EMBEDDING__MODEL": "fake-embedder",
        "GRAPHRAG_CACHE_DIR": str(cache), "COLUMNS": "300",
        "PYTHONPATH": str(Path(__file__).resolve().parents[3]),
    }  # fmt: skip
    return {**os.environ, **hosted}
