"""HTTP API overhead: `/v1/query` with `retrieve_only` against the same call in process.

Index the MuSiQue triplets first (`graphrag-neo4j index --triplets .../musique/corpus.jsonl`),
then run: .venv/bin/python benchmarks/server.py [--method local] [--questions N] [--clients 4]
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
from pathlib import Path

import httpx

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.settings import load_settings
from graphrag_neo4j.testing import FakeChatModel

QUESTIONS = Path(__file__).resolve().parents[2] / "shared/data/musique/questions_dev.json"
Call = Callable[[str], Awaitable[object]]


def engine() -> GraphRAG:
    """The engine both sides use: settings from the environment, no LLM needed."""
    return GraphRAG(load_settings(), llm=FakeChatModel(rules=[]))


def serve(port: int) -> None:
    """The server side: the API over `engine()` on 127.0.0.1:port."""
    from graphrag_neo4j.api.app import create_app
    from graphrag_neo4j.api.runner import server_for

    with engine() as rag:
        settings = rag.settings.server
        server = server_for(create_app(rag), settings, "127.0.0.1", port)
        server.config.log_level = "warning"
        server.config.access_log = False
        server.run()


async def latencies(call: Call, questions: list[str]) -> list[float]:
    """Milliseconds per call, one after another."""
    times = []
    for question in questions:
        started = time.perf_counter()
        await call(question)
        times.append((time.perf_counter() - started) * 1000)
    return times


async def throughput(call: Call, questions: list[str], clients: int) -> float:
    """Calls per second with `clients` callers working through the questions together."""
    queue = list(reversed(questions))

    async def client() -> None:
        while queue:
            await call(queue.pop())

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return len(questions) / (time.perf_counter() - started)


async def measure(call: Call, questions: list[str], clients: int) -> tuple[list[float], float]:
    """A warm-up pass, then sequential latencies and concurrent throughput."""
    await latencies(call, questions)
    return await latencies(call, questions), await throughput(call, questions, clients)


async def in_process(questions: list[str], method: str, clients: int) -> tuple[list[float], float]:
    """`GraphRAG.aretrieve` directly."""
    with engine() as rag:
        return await measure(lambda q: rag.aretrieve(q, method), questions, clients)


async def over_http(
    url: str, questions: list[str], method: str, clients: int
) -> tuple[list[float], float]:
    """The same retrieval through `POST /v1/query` with keep-alive connections."""
    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:

        async def call(question: str) -> None:
            body = {"question": question, "method": method, "retrieve_only": True}
            response = await client.post("/v1/query", json=body)
            response.raise_for_status()

        return await measure(call, questions, clients)


def started_server(port: int) -> subprocess.Popen[bytes]:
    """This script in --serve mode, once /health answers."""
    process = subprocess.Popen([sys.executable, __file__, "--serve", str(port)], env=os.environ)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.3)
    process.terminate()
    raise SystemExit("The API server did not become healthy within 120 s.")


def report(name: str, times: list[float], rps: float, clients: int) -> None:
    """One line of figures."""
    p95 = statistics.quantiles(times, n=20)[18]
    print(f"{name:<12} p50 {statistics.median(times):7.2f} ms   p95 {p95:7.2f} ms"
          f"   {rps:7.1f} requests/s at {clients} clients")


def main() -> None:
    """Measure both sides and print the overhead and the throughput ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--method", default="local")
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--port", type=int, default=18731)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    questions = [q["question"] for q in json.loads(QUESTIONS.read_text())][: args.questions]
    local_times, local_rps = asyncio.run(in_process(questions, args.method, args.clients))
    server = started_server(args.port)
    try:
        http_times, http_rps = asyncio.run(
            over_http(f"http://127.0.0.1:{args.port}", questions, args.method, args.clients))
    finally:
        server.terminate()
        server.wait(30)
    print(f"{len(questions)} questions, method {args.method}, retrieve_only")
    report("in process", local_times, local_rps, args.clients)
    report("over HTTP", http_times, http_rps, args.clients)
    overhead = statistics.median(http_times) - statistics.median(local_times)
    print(f"HTTP overhead at p50: {overhead:.2f} ms (target < 5 ms); throughput in process /"
          f" over HTTP: {local_rps / http_rps:.2f}x (target < 2x)")


if __name__ == "__main__":
    main()
