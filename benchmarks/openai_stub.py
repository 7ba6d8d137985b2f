"""A local OpenAI-compatible server for benchmarks: canned chat replies after a set delay, a
scripted rate limit (429 + Retry-After past N calls in flight) and, optionally, real embeddings.

    with serve_stub(StubConfig(latency_s=1.0, max_in_flight=8), answer) as stub:
        ...  # point a client at stub.base_url; stub.counts says what it did
Chat replies are `answer(prompt)`; streamed when asked (with usage in a last chunk when the
request asks for it, as OpenAI does). /v1/embeddings answers with `embedder.embed_documents`
when an embedder is given, as little-endian float32 in base64 when the request asks
`encoding_format: "base64"` (as OpenAI does, and as its Python client asks by default).
Keep-alive HTTP/1.1, like hosted APIs.
"""

from __future__ import annotations

import base64
import json
import struct
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from langchain_core.embeddings import Embeddings

from graphrag_neo4j.llm.tokens.counting import count_tokens


@dataclass(frozen=True)
class StubConfig:
    """How the stub behaves: delay per chat reply, calls it admits at once (0: any)."""

    latency_s: float = 0.0
    max_in_flight: int = 0
    retry_after_s: float = 1.0


@dataclass
class StubCounts:
    """What the stub did: replies per prompt, 429s sent, texts embedded, most in flight."""

    answered: Counter[str] = field(default_factory=Counter)
    rate_limited: int = 0
    embedded_texts: int = 0
    embedded_tokens: int = 0
    peak_in_flight: int = 0
    in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def replies(self) -> int:
        """Chat replies sent (the calls a hosted API would bill)."""
        return sum(self.answered.values())

    @property
    def repeated(self) -> int:
        """Replies to a prompt already answered once (paid twice)."""
        return sum(count - 1 for count in self.answered.values())


@dataclass
class Stub:
    """A running stub: where it listens and its counts."""

    base_url: str
    counts: StubCounts


def _prompt(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []))


def _usage(prompt: str, text: str) -> dict[str, int]:
    prompt_tokens, completion_tokens = count_tokens(prompt), count_tokens(text)
    return {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens}


def _completion(text: str, usage: dict[str, int]) -> dict[str, Any]:
    return {"id": "stub", "object": "chat.completion", "created": 0, "model": "stub-model",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": usage}


def _sse_events(text: str, usage: dict[str, int] | None) -> Iterator[dict[str, Any]]:
    base = {"id": "stub", "object": "chat.completion.chunk", "created": 0, "model": "stub-model"}
    for start in range(0, len(text), 200):
        delta = {"content": text[start : start + 200]}
        yield {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    yield {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    if usage is not None:
        yield {**base, "choices": [], "usage": usage}


def _handler(config: StubConfig, counts: StubCounts, answer: Callable[[str], str],
             embedder: Embeddings | None) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_: object) -> None:
            return

        def handle(self) -> None:
            try:
                super().handle()
            except (ConnectionResetError, BrokenPipeError):
                return

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            if self.path.endswith("/embeddings"):
                self._embed(body)
            else:
                self._chat(body)

        def _embed(self, body: dict[str, Any]) -> None:
            if embedder is None:
                self._json(404, {"error": {"message": "no embedder on this stub"}})
                return
            texts = [str(t) for t in (body["input"] if isinstance(body["input"], list)
                                      else [body["input"]])]
            vectors = embedder.embed_documents(texts)
            tokens = sum(count_tokens(t) for t in texts)
            with counts.lock:
                counts.embedded_texts += len(texts)
                counts.embedded_tokens += tokens
            encode = _base64 if body.get("encoding_format") == "base64" else list
            self._json(200, {"object": "list", "model": body.get("model", "stub-embedder"),
                             "data": [{"object": "embedding", "index": i, "embedding": encode(v)}
                                      for i, v in enumerate(vectors)],
                             "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})

        def _chat(self, body: dict[str, Any]) -> None:
            with counts.lock:
                if config.max_in_flight and counts.in_flight >= config.max_in_flight:
                    counts.rate_limited += 1
                    refused = True
                else:
                    counts.in_flight += 1
                    counts.peak_in_flight = max(counts.peak_in_flight, counts.in_flight)
                    refused = False
            if refused:
                self._json(429, {"error": {"message": "Rate limit reached", "code": None}},
                           {"Retry-After": f"{config.retry_after_s:g}"})
                return
            try:
                prompt = _prompt(body)
                text = answer(prompt)
                time.sleep(config.latency_s)
                usage = _usage(prompt, text)
                if body.get("stream"):
                    wants = bool((body.get("stream_options") or {}).get("include_usage"))
                    self._stream(text, usage if wants else None)
                else:
                    self._json(200, _completion(text, usage))
                with counts.lock:
                    counts.answered[prompt] += 1
            finally:
                with counts.lock:
                    counts.in_flight -= 1

        def _stream(self, text: str, usage: dict[str, int] | None) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for event in _sse_events(text, usage):
                data = b"data: " + json.dumps(event).encode() + b"\n\n"
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            done = b"data: [DONE]\n\n"
            self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(done), done))
            self.wfile.flush()

        def _json(self, code: int, payload: dict[str, Any],
                  headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default 5 drops connections when 25 calls open at once


def _base64(vector: list[float]) -> str:
    """A vector as OpenAI's base64 encoding sends it: little-endian float32 bytes."""
    return base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode("ascii")


@contextmanager
def serve_stub(config: StubConfig, answer: Callable[[str], str],
               embedder: Embeddings | None = None) -> Iterator[Stub]:
    """Serve on 127.0.0.1 (a free port) for the block."""
    counts = StubCounts()
    server = _Server(("127.0.0.1", 0), _handler(config, counts, answer, embedder))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Stub(f"http://127.0.0.1:{server.server_address[1]}/v1", counts)
    finally:
        server.shutdown()
        server.server_close()
