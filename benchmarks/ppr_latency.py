"""Retrieve-only latency of the passage methods as a fast graph grows (2Wiki's passages).

Run against a Neo4j of its own (the first size wipes the graph, so --reset is required):
  .venv/bin/python benchmarks/ppr_latency.py --reset [--sizes 2000 6119] [--queries 100]
Each size fast-indexes the first N passages into the same graph (the next size adds only the
passages past the last one, no communities: the methods timed read none), then asks --queries
retrieve-only questions made from passage titles ("What is said about <title>?") per method,
after WARM_UP untimed ones, and prints p50 / p95 milliseconds and each p50 as a ratio to the
first size's (the target for ppr: p50 <= 150 ms at 6,119 passages, growth <= 2x).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.scale import WARM_UP, _percentile, corpus_slice
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.settings import load_settings

METHODS = ("naive", "local", "hops", "ppr")
console = Console(width=160)


def time_methods(rag: GraphRAG, queries: int) -> dict[str, tuple[float, float]]:
    """p50 and p95 retrieve-only milliseconds per method over questions about titles."""
    rows = rag.store.read("indexing/list_documents", skip=0, limit=queries)
    questions = [f"What is said about {row['title']}?" for row in rows]
    timings = {}
    for method in METHODS:
        for question in questions[:WARM_UP]:
            rag.retrieve(question, method)
        times = []
        for question in questions:
            begun = time.perf_counter()
            rag.retrieve(question, method)
            times.append(1000 * (time.perf_counter() - begun))
        timings[method] = (statistics.median(times), _percentile(times, 0.95))
    return timings


def time_graph_as_it_is(queries: int) -> None:
    """Time the methods on the graph as it is (no indexing), for a run stopped mid-way."""
    with GraphRAG(load_settings(), console=Console(stderr=True, quiet=True)) as rag:
        console.print(f"{rag.counts()}")
        console.print(_table({rag.counts()["documents"]: time_methods(rag, queries)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 6119])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--reset", action="store_true", help="Wipe the graph first.")
    parser.add_argument("--as-is", action="store_true", help="Only time the graph as it is.")
    args = parser.parse_args()
    if args.as_is:
        time_graph_as_it_is(args.queries)
        return
    if not args.reset:
        raise SystemExit("benchmarks/ppr_latency.py wipes the graph: pass --reset (and point"
                         " GRAPHRAG_NEO4J__* at a server of its own).")
    results: dict[int, dict[str, tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as folder, GraphRAG(
        load_settings(), console=Console(stderr=True, quiet=True)
    ) as rag:
        rag.store.run_autocommit("delete_all")
        rag.run(rag.aensure_schema())
        for size in sorted(args.sizes):
            started = time.perf_counter()
            rag.index(corpus_slice(Path(folder), size), method="fast")
            console.print(f"{size} passages indexed in {time.perf_counter() - started:.0f} s"
                          f" ({rag.counts()})")
            results[size] = time_methods(rag, args.queries)
            console.print(_table(results))  # each size as it comes: a long run may be stopped


def _table(results: dict[int, dict[str, tuple[float, float]]]) -> Table:
    table = Table(title="Retrieve-only p50 / p95 ms (p50 as a ratio to the first size)")
    table.add_column("passages", justify="right")
    for method in METHODS:
        table.add_column(method, justify="right")
    first = results[min(results)]
    for size, timings in sorted(results.items()):
        table.add_row(f"{size:,}", *[
            f"{timings[m][0]:.0f} / {timings[m][1]:.0f} ({timings[m][0] / first[m][0]:.2f}x)"
            for m in METHODS])
    return table


if __name__ == "__main__":
    main()
