"""LLM call latency against a hosted-like endpoint: wall time against the concurrency floor,
and what a provider's 429s cost.

Run: .venv/bin/python -m benchmarks.llm.latency [--calls 50] [--latencies 1,3]
                                             [--concurrency 4,8,25] [--server-limit 8]
A local OpenAI-compatible stub (benchmarks/openai_stub.py) answers every extraction-shaped
prompt after a set delay; the calls go through the engine's real path (ChatOpenAI over HTTP,
LLMCaller: streaming with the extraction stop rule, cache, retries, the adaptive limit).
For each latency and concurrency: wall time against the floor (calls x latency /
concurrency). Then the same with the stub admitting only --server-limit calls at once and
answering the rest 429 + Retry-After: 1 (floor: calls x latency / server limit), and a
re-run on the same cache. Targets: wall <= 1.2x the floor at 1 s; under 429s every call
answered, none paid twice (the stub's replies per prompt), the re-run all cache hits.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.openai_stub import StubConfig, serve_stub
from graphrag_neo4j.indexing.extraction.llm import STAGE, STOP_RULE
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.providers import resolve_llm
from graphrag_neo4j.llm.testing import pipeline_fake_llm
from graphrag_neo4j.settings import Settings

PROMPT = "Extract the concepts and relations.\n\nText:\n{text}\n\nOutput:"
NAMES = ["Ada Lovelace", "Charles Babbage", "Mary Somerville", "Alan Turing", "Joan Clarke"]


@dataclass(frozen=True)
class Case:
    """One measured configuration and what came of it."""

    label: str
    latency_s: float
    concurrency: int
    server_limit: int
    wall_s: float
    answered: int
    replies: int
    repeated: int
    rate_limited: int
    retries: int
    final_limit: int
    rerun_replies: int
    rerun_hits: int

    @property
    def floor_s(self) -> float:
        """Waves of `parallel` calls, each one latency long: calls x latency / parallel,
        rounded up to whole waves (fewer calls than the concurrency still take one latency)."""
        parallel = min(self.concurrency, self.server_limit or self.concurrency)
        return math.ceil(self.answered / parallel) * self.latency_s


def _prompts(calls: int) -> list[str]:
    return [PROMPT.format(text=f"Note {i}: {NAMES[i % 5]} met {NAMES[(i + 1) % 5]} in {1800 + i}.")
            for i in range(calls)]


def _caller(base_url: str, concurrency: int, cache_dir: Path) -> LLMCaller:
    settings = Settings(cache_dir=cache_dir, llm={
        "provider": "openai", "base_url": base_url, "api_key": "stub", "model": "stub-model",
        "concurrency": concurrency, "timeout_s": 60.0})
    return LLMCaller(resolve_llm(settings).model, settings.llm, cache_dir)


async def _run_all(caller: LLMCaller, prompts: list[str]) -> tuple[int, int]:
    """(calls answered, calls the adaptive limit allows at the end)."""
    replies = await asyncio.gather(*(caller.complete(p, stage=STAGE, stop_when=STOP_RULE)
                                     for p in prompts))
    return sum(1 for reply in replies if reply), caller.limit.allowed


def measure(label: str, calls: int, latency_s: float, concurrency: int, server_limit: int,
            cache_dir: Path) -> Case:
    """Run `calls` distinct prompts, then again on the same cache."""
    config = StubConfig(latency_s=latency_s, max_in_flight=server_limit)
    prompts = _prompts(calls)
    with serve_stub(config, pipeline_fake_llm().answer) as stub:
        caller = _caller(stub.base_url, concurrency, cache_dir)
        started = time.perf_counter()
        answered, final_limit = asyncio.run(_run_all(caller, prompts))
        wall = time.perf_counter() - started
        usage = caller.usage.total()
        caller.close()
        replies, repeated = stub.counts.replies, stub.counts.repeated
        again = _caller(stub.base_url, concurrency, cache_dir)
        asyncio.run(_run_all(again, prompts))
        rerun_hits = again.usage.total().cache_hits
        again.close()
        return Case(label, latency_s, concurrency, server_limit, wall, answered, replies,
                    repeated, stub.counts.rate_limited, usage.retries, final_limit,
                    stub.counts.replies - replies, rerun_hits)


def _table(cases: list[Case]) -> Table:
    table = Table(title="LLM calls against a latency stub (floor = calls x latency /"
                  " min(concurrency, server limit), in whole waves)")
    for header in ("case", "latency s", "concurrency", "server limit", "wall s", "floor s",
                   "wall/floor", "answered", "replies", "repeated", "429s", "retries",
                   "limit at end", "re-run replies", "re-run hits"):
        table.add_column(header, justify="left" if header == "case" else "right")
    for c in cases:
        table.add_row(c.label, f"{c.latency_s:g}", str(c.concurrency), str(c.server_limit or "-"),
                      f"{c.wall_s:.2f}", f"{c.floor_s:.2f}", f"{c.wall_s / c.floor_s:.2f}",
                      str(c.answered), str(c.replies), str(c.repeated), str(c.rate_limited),
                      str(c.retries), str(c.final_limit), str(c.rerun_replies),
                      str(c.rerun_hits))
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--latencies", default="1,3")
    parser.add_argument("--concurrency", default="4,8,25")
    parser.add_argument("--server-limit", type=int, default=8)
    args = parser.parse_args()
    latencies = [float(x) for x in args.latencies.split(",")]
    levels = [int(x) for x in args.concurrency.split(",")]
    cases: list[Case] = []
    with tempfile.TemporaryDirectory() as tmp:
        for latency in latencies:
            for level in levels:
                cache = Path(tmp) / f"cache-{latency}-{level}"
                cases.append(measure("open", args.calls, latency, level, 0, cache))
        cache = Path(tmp) / "cache-429"
        cases.append(measure("429 past limit", args.calls, latencies[0], max(levels),
                             args.server_limit, cache))
    Console().print(_table(cases))


if __name__ == "__main__":
    main()
