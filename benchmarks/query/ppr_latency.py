"""Retrieve-only latency of the passage methods as a fast graph grows (2Wiki's passages).

Run against a Neo4j of its own (the first size wipes the graph, so --reset is required):
  .venv/bin/python benchmarks/query/ppr_latency.py --reset [--sizes 2000 6119] [--queries 100]
Each size fast-indexes the first N passages into the same graph (the next size adds only the
passages past the last one, no communities: the methods timed read none), then asks --queries
retrieve-only questions made from passage titles ("What is said about <title>?") per method,
after WARM_UP untimed ones, and prints p50 / p95 milliseconds and each p50 as a ratio to the
first size's (the target for ppr: p50 <= 150 ms at 6,119 passages, growth <= 2x).

One graph per size, each on its own server, built once and timed side by side in one run:
  GRAPHRAG_NEO4J__URI=A .venv/bin/python benchmarks/query/ppr_latency.py --reset --build-only \
      --sizes 2000
  (--build-only without --reset adds the passages past those already in the graph)
  .venv/bin/python benchmarks/query/ppr_latency.py --as-is --uris A B [--queries 100]
--as-is times each method on every graph in turn and adds each p50 as a ratio to naive's on the
same graph and the load average. Graphs in workspaces of one server instead of servers:
  .venv/bin/python benchmarks/query/ppr_latency.py --as-is --workspaces w2k w2full
--methods times some of the methods only (hops asks the LLM its follow-up, seconds a question
with the offline model; naive is always timed, for the ratios).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.scale.scale import WARM_UP, _percentile, corpus_slice
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.settings import Settings, load_settings

METHODS = ("naive", "local", "hops", "ppr")
console = Console(width=160)


def _questions(rag: GraphRAG, queries: int) -> list[str]:
    rows = rag.store.read("indexing/documents/list_documents", skip=0, limit=queries)
    return [f"What is said about {row['title']}?" for row in rows]


def _time_method(rag: GraphRAG, method: str, questions: list[str]) -> tuple[float, float]:
    """p50 and p95 retrieve-only milliseconds of one method, after WARM_UP untimed questions."""
    for question in questions[:WARM_UP]:
        rag.retrieve(question, method)
    times = []
    for question in questions:
        begun = time.perf_counter()
        rag.retrieve(question, method)
        times.append(1000 * (time.perf_counter() - begun))
    return statistics.median(times), _percentile(times, 0.95)


def time_methods(
    rag: GraphRAG, queries: int, methods: tuple[str, ...] = METHODS
) -> dict[str, tuple[float, float]]:
    """p50 and p95 retrieve-only milliseconds per method over questions about titles."""
    questions = _questions(rag, queries)
    return {method: _time_method(rag, method, questions) for method in methods}


def time_graphs_as_they_are(
    targets: list[Settings], queries: int, methods: tuple[str, ...] = METHODS
) -> None:
    """Time the methods on each graph as it is (a server's, or a workspace's), one method on
    every graph in turn."""
    quiet = Console(stderr=True, quiet=True)
    with ExitStack() as stack:
        rags = [stack.enter_context(GraphRAG(settings, console=quiet)) for settings in targets]
        sizes = [rag.counts()["documents"] for rag in rags]
        for settings, rag in zip(targets, rags, strict=True):
            where = f"{settings.neo4j.uri} {settings.neo4j.workspace or 'default'}"
            console.print(f"{where}: {rag.counts()}")
        questions = [_questions(rag, queries) for rag in rags]
        results: dict[int, dict[str, tuple[float, float]]] = {size: {} for size in sizes}
        loads = [os.getloadavg()[0]]
        for method in methods:
            for size, rag, asked in zip(sizes, rags, questions, strict=True):
                results[size][method] = _time_method(rag, method, asked)
            loads.append(os.getloadavg()[0])
        console.print(_table(results, methods))
        console.print(_naive_ratios(results, methods))
        console.print("1-minute load average before and after each method: "
                      + ", ".join(f"{load:.1f}" for load in loads))


def _settings_at(uri: str | None = None, workspace: str | None = None) -> Settings:
    settings = load_settings()
    changes = {key: value for key, value in (("uri", uri), ("workspace", workspace))
               if value is not None}
    return settings.model_copy(update={"neo4j": settings.neo4j.model_copy(update=changes)})


def _naive_ratios(
    results: dict[int, dict[str, tuple[float, float]]], methods: tuple[str, ...]
) -> Table:
    table = Table(title="Retrieve-only p50 as a ratio to naive's p50 on the same graph")
    table.add_column("passages", justify="right")
    for method in methods:
        table.add_column(method, justify="right")
    for size, timings in sorted(results.items()):
        naive = timings["naive"][0]
        table.add_row(f"{size:,}", *[f"{timings[m][0] / naive:.2f}x" for m in methods])
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 6119])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--reset", action="store_true", help="Wipe the graph first.")
    parser.add_argument("--as-is", action="store_true", help="Only time the graph as it is.")
    parser.add_argument("--uris", nargs="+", default=[None],
                        help="With --as-is: the Bolt URIs of servers holding a graph each.")
    parser.add_argument("--workspaces", nargs="+",
                        help="With --as-is: workspaces of one server holding a graph each.")
    parser.add_argument("--methods", nargs="+", choices=METHODS, default=list(METHODS),
                        help="The methods to time (naive is always timed).")
    parser.add_argument("--build-only", action="store_true",
                        help="Index the sizes without timing (to time later with --as-is).")
    args = parser.parse_args()
    methods = tuple(m for m in METHODS if m == "naive" or m in args.methods)
    if args.as_is:
        targets = ([_settings_at(workspace=name) for name in args.workspaces]
                   if args.workspaces else [_settings_at(uri) for uri in args.uris])
        time_graphs_as_they_are(targets, args.queries, methods)
        return
    if not args.reset and not args.build_only:
        raise SystemExit("benchmarks/query/ppr_latency.py wipes the graph: pass --reset (and point"
                         " GRAPHRAG_NEO4J__* at a server of its own).")
    results: dict[int, dict[str, tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as folder, GraphRAG(
        load_settings(), console=Console(stderr=True, quiet=True)
    ) as rag:
        if args.reset:
            rag.store.run_autocommit("database/delete_all")
        rag.run(rag.aensure_schema())
        for size in sorted(args.sizes):
            started = time.perf_counter()
            rag.index(corpus_slice(Path(folder), size), method="fast")
            console.print(f"{size} passages indexed in {time.perf_counter() - started:.0f} s"
                          f" ({rag.counts()})")
            if args.build_only:
                continue
            results[size] = time_methods(rag, args.queries, methods)
            # Each size as it comes: a long run may be stopped.
            console.print(_table(results, methods))


def _table(
    results: dict[int, dict[str, tuple[float, float]]], methods: tuple[str, ...]
) -> Table:
    table = Table(title="Retrieve-only p50 / p95 ms (p50 as a ratio to the first size)")
    table.add_column("passages", justify="right")
    for method in methods:
        table.add_column(method, justify="right")
    first = results[min(results)]
    for size, timings in sorted(results.items()):
        table.add_row(f"{size:,}", *[
            f"{timings[m][0]:.0f} / {timings[m][1]:.0f} ({timings[m][0] / first[m][0]:.2f}x)"
            for m in methods])
    return table


if __name__ == "__main__":
    main()
