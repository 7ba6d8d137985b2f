"""Community build timings on the graph in Neo4j: edge read, Leiden, write, extractive
summaries, report contexts.

Index the MuSiQue triplets first (`graphrag-neo4j index --triplets .../musique/corpus.jsonl`),
then run: .venv/bin/python benchmarks/indexing/communities.py [--keep] [--fake-reports] [--embed]
--keep starts from the stored communities (incremental run) instead of deleting them first;
--fake-reports also runs the whole report stage with an instant fake LLM and fake embedder;
--embed embeds the extractive summaries with the configured embedder (default: a fake one,
so the figure is the stage's own work).
Targets: Leiden + write < 30 s; Leiden + write + extractive summaries < 10 s on a book's graph.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from rich.console import Console
from rich.table import Table

from graphrag_neo4j.communities.build import build_communities, ids_at_level, members_by_id
from graphrag_neo4j.communities.extractive_stage import write_extracts
from graphrag_neo4j.communities.ids import assign_ids
from graphrag_neo4j.communities.leiden import cluster_graph, read_edges
from graphrag_neo4j.communities.report_stage import PlannedReport, ReportStage
from graphrag_neo4j.communities.writer import read_stored, write_structure
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.providers import resolve_embeddings
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.runtime.progress import StageProgress
from graphrag_neo4j.settings import Settings, load_settings

T = TypeVar("T")
TARGET_S = 30.0
EXTRACTIVE_TARGET_S = 10.0
FAKE_REPORT = json.dumps({
    "title": "Benchmark community", "summary": "A community of the benchmark graph.",
    "rating": 5, "rating_explanation": "Fixed by the benchmark.",
    "findings": [{"summary": "Members", "explanation": "[Data: Entities (x)]"}],
})


def timed(figures: dict[str, float], name: str, work: Callable[[], T]) -> T:
    """Run `work`, adding its wall time in seconds under `name`."""
    started = time.perf_counter()
    result = work()
    figures[name] = figures.get(name, 0.0) + time.perf_counter() - started
    return result


def cluster_figures(store: Store, settings: Settings, keep: bool, figures: dict[str, float]
                    ) -> tuple[dict[str, frozenset[str]], dict[int, list[str]]]:
    """Time the structure stages; return each community's members and the ids per level."""
    if not keep:
        old = [{"id": c.id} for c in read_stored(store)]
        store.write_rows("communities/build/delete_communities", old)
    edges = timed(figures, "read edges", lambda: read_edges(store))
    hierarchy = timed(figures, "leiden", lambda: cluster_graph(edges, settings.communities))
    stored = timed(figures, "write (read stored + match ids)", lambda: read_stored(store))
    assignment = timed(figures, "write (read stored + match ids)",
                       lambda: assign_ids(hierarchy, stored))
    timed(figures, "write (nodes, links, weights)",
          lambda: write_structure(store, hierarchy, assignment))
    per_level = {lvl: len(hierarchy.at_level(lvl)) for lvl in hierarchy.levels}
    sizes = [len(c.members) for c in hierarchy.clusters.values() if c.level == 0]
    print(f"edges {len(edges):,}; entities clustered {len(hierarchy.entities):,}; communities"
          f" per level {per_level}; level-0 sizes max {max(sizes)} median"
          f" {statistics.median(sizes)}; ids kept {len(assignment.kept):,}, new"
          f" {len(assignment.fresh):,}, deleted {len(assignment.deleted):,}")
    levels = {lvl: ids_at_level(hierarchy, assignment, lvl) for lvl in reversed(hierarchy.levels)}
    return members_by_id(hierarchy, assignment), levels


def extractive_figures(store: Store, settings: Settings, members: dict[str, frozenset[str]],
                       levels: dict[int, list[str]], embedder: EmbeddingCaller,
                       figures: dict[str, float]) -> None:
    """Time the extractive summaries: read descriptions, summarise, embed, write."""
    seconds: dict[str, float] = {}
    with StageProgress(Console(stderr=True), seconds) as progress:
        counts = asyncio.run(write_extracts(store, settings.communities,
                                            settings.chunking.encoding, members, levels,
                                            embedder, progress))
    for stage, value in seconds.items():
        figures[f"extractive: {stage}"] = value
    print(f"extractive summaries: {counts.written:,} written, {counts.unchanged:,} unchanged,"
          f" {counts.reports_kept:,} LLM reports kept")


def context_figures(stage: ReportStage, levels: dict[int, list[str]],
                    figures: dict[str, float]) -> None:
    """Time reading and building every report context, deepest level first."""
    plans: list[PlannedReport] = []
    for ids in levels.values():
        plans += timed(figures, "report contexts (read + build)", partial(stage.plan, ids))
    tokens = [p.context.tokens for p in plans]
    substituted = sum(1 for p in plans if p.context.report_ids)
    print(f"contexts {len(plans):,}: tokens mean {statistics.mean(tokens):.0f}, max"
          f" {max(tokens):,} (budget {stage.budget:,}); {substituted} used sub-community"
          " reports or extracts")


async def fake_report_run(store: Store, settings: Settings, figures: dict[str, float]) -> None:
    """The whole build with an instant fake LLM: everything but the model's own time."""
    llm = LLMCaller(FakeChatModel(rules=[("community", FAKE_REPORT)]), settings.llm, None)
    embedder = EmbeddingCaller(FakeEmbeddings(), settings.embedding, None)
    started = time.perf_counter()
    stats = await build_communities(store, settings, llm, embedder, Console(stderr=True))
    figures["full build with fake LLM"] = time.perf_counter() - started
    print(stats.message)
    Console().print(stats.table())


def main() -> None:
    """Print the figures as a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--keep", action="store_true", help="keep stored communities")
    parser.add_argument("--fake-reports", action="store_true", help="run reports (fake LLM)")
    parser.add_argument("--embed", action="store_true", help="use the configured embedder")
    args = parser.parse_args()
    settings = load_settings()
    model = resolve_embeddings(settings).model if args.embed else FakeEmbeddings()
    embedder = EmbeddingCaller(model, settings.embedding, settings.cache_dir if args.embed
                               else None)
    figures: dict[str, float] = {}
    with Store.connect(settings.neo4j) as store:
        members, levels = cluster_figures(store, settings, args.keep, figures)
        extractive_figures(store, settings, members, levels, embedder, figures)
        context_figures(ReportStage(store, settings), levels, figures)
        if args.fake_reports:
            asyncio.run(fake_report_run(store, settings, figures))
    leiden_write = sum(v for k, v in figures.items() if k == "leiden" or k.startswith("write"))
    extractive = sum(v for k, v in figures.items()
                     if k.startswith("extractive") and "embeddings" not in k)
    table = Table("stage", "seconds", title="Community build timings")
    for name, seconds in figures.items():
        table.add_row(name, f"{seconds:.2f}")
    verdict = "meets" if leiden_write < TARGET_S else "MISSES"
    table.add_row("leiden + write", f"{leiden_write:.2f} ({verdict} the {TARGET_S:.0f} s target)")
    total = leiden_write + extractive
    verdict = "meets" if total < EXTRACTIVE_TARGET_S else "misses"
    table.add_row("leiden + write + extractive (no embedding)",
                  f"{total:.2f} ({verdict} the book-graph {EXTRACTIVE_TARGET_S:.0f} s target)")
    Console().print(table)


if __name__ == "__main__":
    main()
