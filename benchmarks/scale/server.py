"""HTTP API overhead: `/v1/query` with `retrieve_only` against the same call in process.

Index the MuSiQue triplets first (`graphrag-neo4j index --triplets .../musique/corpus.jsonl`),
then run: .venv/bin/python benchmarks/scale/server.py [--method local] [--clients 4] [--rounds 3]
The server runs in its own process (as `graphrag-neo4j serve` would) with a fake LLM, because
retrieval only is timed. Targets: HTTP overhead < 5 ms at p50; throughput at 4 concurrent
clients within 2x of in-process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from graphrag_neo4j.api.app import create_app
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.settings import load_settings

QUESTIONS = Path(__file__).resolve().parents[3] / "shared/data/musique/questions_dev.json"
Call = Callable[[str], Awaitable[object]]


def engine() -> GraphRAG:
    """The engine both sides use: settings from the environment, no LLM needed."""
    return GraphRAG(load_settings(), llm=FakeChatModel(rules=[]))


def serve(port: int) -> None:
    """The server side: the API over `engine()` on 127.0.0.1:port."""
    from graphrag_neo4j.api.runner import server_for

    with engine() as rag:
        server_for(create_app(rag), rag.settings.server, "127.0.0.1", port).run()


async def timed(call: Call, question: str) -> float:
    """Milliseconds one call takes."""
    started = time.perf_counter()
    await call(question)
    return (time.perf_counter() - started) * 1000


async def throughput(call: Call, questions: list[str], clients: int) -> float:
    """Calls per second with `clients` callers working through the questions together."""
    queue = list(reversed(questions))

    async def client() -> None:
        while queue:
            await call(queue.pop())

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return len(questions) / (time.perf_counter() - started)


@dataclass
class Figures:
    """Latencies (ms) and throughputs (requests/s) of both sides, plus the bare HTTP floor."""

    local: list[float] = field(default_factory=list)
    asgi: list[float] = field(default_factory=list)
    http: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    local_rps: list[float] = field(default_factory=list)
    http_rps: list[float] = field(default_factory=list)


async def measure(url: str, questions: list[str], method: str, args: argparse.Namespace) -> Figures:
    """Each question in process then over HTTP, back to back, so both see the same machine load
    (this machine is shared); then throughput rounds, alternating sides."""
    figures = Figures()
    limits = httpx.Limits(max_connections=args.clients)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:

        async def over_http(question: str) -> None:
            body = {"question": question, "method": method, "retrieve_only": True}
            (await client.post("/v1/query", json=body)).raise_for_status()

        async def bare(_: str) -> None:
            (await client.get("/v1/models")).raise_for_status()

        with engine() as rag:
            await rag.aensure_schema()  # as the server's start does
            # The app's own cost, free of sockets and of waiting for the server process.
            app = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(rag)),
                                    base_url="http://app")

            async def in_process(question: str) -> None:
                await rag.aretrieve(question, method)

            async def in_app(question: str) -> None:
                body = {"question": question, "method": method, "retrieve_only": True}
                (await app.post("/v1/query", json=body)).raise_for_status()

            for question in questions:  # warm-up: caches, connections, JIT
                await in_process(question)
                await in_app(question)
                await over_http(question)
            for _ in range(args.rounds):
                for question in questions:
                    figures.local.append(await timed(in_process, question))
                    figures.asgi.append(await timed(in_app, question))
                    figures.http.append(await timed(over_http, question))
                    figures.floor.append(await timed(bare, question))
                figures.local_rps.append(await throughput(in_process, questions, args.clients))
                figures.http_rps.append(await throughput(over_http, questions, args.clients))
            await app.aclose()
    return figures


def started_server(port: int, access_log: bool) -> subprocess.Popen[bytes]:
    """This script in --serve mode, once /health answers."""
    env = {**os.environ, "GRAPHRAG_SERVER__ACCESS_LOG": str(access_log).lower()}
    process = subprocess.Popen([sys.executable, __file__, "--serve", str(port)], env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.3)
    process.terminate()
    raise SystemExit("The API server did not become healthy within 120 s.")


def report(name: str, times: list[float], rps: list[float] | None, clients: int) -> None:
    """One line of figures."""
    p95 = statistics.quantiles(times, n=20)[18]
    rate = f"   {statistics.median(rps):7.1f} requests/s at {clients} clients" if rps else ""
    print(f"{name:<14} p50 {statistics.median(times):7.2f} ms   p95 {p95:7.2f} ms{rate}")


def main() -> None:
    """Measure both sides and print the overhead and the throughput ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--method", default="local")
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--port", type=int, default=18731)
    parser.add_argument("--access-log", action="store_true",
                        help="Keep the server's access log on (a line per request to stderr).")
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    questions = [q["question"] for q in json.loads(QUESTIONS.read_text())][: args.questions]
    server = started_server(args.port, args.access_log)
    try:
        figures = asyncio.run(
            measure(f"http://127.0.0.1:{args.port}", questions, args.method, args))
    finally:
        server.terminate()
        server.wait(30)
    print(f"{len(questions)} questions x {args.rounds} rounds, method {args.method},"
          f" retrieve_only, access log {'on' if args.access_log else 'off'}")
    report("in process", figures.local, figures.local_rps, args.clients)
    report("app (ASGI)", figures.asgi, None, args.clients)
    report("over HTTP", figures.http, figures.http_rps, args.clients)
    report("GET /v1/models", figures.floor, None, args.clients)
    for name, times in (("app (ASGI, no socket)", figures.asgi), ("HTTP", figures.http)):
        paired = statistics.median(t - loc for t, loc in zip(times, figures.local, strict=True))
        print(f"{name} overhead at p50 (median of paired differences): {paired:.2f} ms"
              " (target < 5 ms)")
    ratio = statistics.median(figures.local_rps) / statistics.median(figures.http_rps)
    print(f"throughput in process / over HTTP: {ratio:.2f}x (target < 2x)")


if __name__ == "__main__":
    main()
