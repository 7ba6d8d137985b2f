"""Ingest throughput on MuSiQue: embedding vs Neo4j write time, writes vs a bare CREATE floor.

Run against a Neo4j of its own (the graph is wiped, so --reset is required when it is not empty):
  .venv/bin/python benchmarks/ingest.py --reset [--fake-embeddings] [--limit N] [--twice]
The real Indexer ingests /work/shared/data/musique/corpus.jsonl (1,890 passages, 17,234 triplets)
with every Neo4j statement and embedding call timed; then the same RELATED rows are written by
a bare UNWIND/MATCH/MATCH/CREATE (cypher/bench_ingest_floor_create.cypher) as the floor, and
removed again.
The offline embedder takes ~5 min cold; its vectors are cached in settings.cache_dir by content
hash, so re-runs only pay the writes. --fake-embeddings isolates the writes without any model.
Target: the graph write (entity mentions + relations + merges) >= 10,000 relationships/s and
within 3x of the floor.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from graphrag_neo4j.embedding_calls import EmbeddingCaller
from graphrag_neo4j.indexer import Indexer
from graphrag_neo4j.settings import Settings, load_settings
from graphrag_neo4j.store import Row, Store
from graphrag_neo4j.testing import FakeEmbeddings
from graphrag_neo4j.triplet_corpus import TripletPassage, read_triplet_corpus

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "musique" / "corpus.jsonl"
TARGET_RATE = 10_000.0
TARGET_RATIO = 3.0
PHASES = {
    "documents + chunks": ("merge_documents", "merge_chunks", "link_next_chunks"),
    "graph (mentions, relations, merges)": (
        "merge_entity_mentions",
        "merge_relation_mentions",
        "record_merges",
    ),
    "descriptions + vectors": ("set_entity_descriptions", "set_relation_descriptions"),
}
GRAPH_PHASE = "graph (mentions, relations, merges)"


def in_phase(key: str, names: Sequence[str]) -> bool:
    """Whether a timing key (one name, or names joined by ' + ') belongs to a phase."""
    return all(part in names for part in key.split(" + "))


@dataclass
class Timing:
    """Calls, rows and seconds of one named statement."""

    calls: int = 0
    rows: int = 0
    seconds: float = 0.0


class TimedStore(Store):
    """A Store that adds up the time of every statement by name."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.writes: dict[str, Timing] = defaultdict(Timing)
        self.reads: dict[str, Timing] = defaultdict(Timing)

    @staticmethod
    def _add(book: dict[str, Timing], name: str, rows: int, started: float) -> None:
        timing = book[name]
        timing.calls += 1
        timing.rows += rows
        timing.seconds += time.perf_counter() - started

    def write(self, name: str, **params: Any) -> list[Row]:
        started = time.perf_counter()
        try:
            return super().write(name, **params)
        finally:
            self._add(self.writes, name, len(params.get("rows", ())), started)

    def write_together(self, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[Row]]:
        started = time.perf_counter()
        try:
            return super().write_together(steps)
        finally:
            name = " + ".join(dict.fromkeys(step for step, _ in steps))
            self._add(self.writes, name, sum(len(p.get("rows", ())) for _, p in steps), started)

    def read(self, name: str, **params: Any) -> list[Row]:
        started = time.perf_counter()
        try:
            return super().read(name, **params)
        finally:
            self._add(self.reads, name, len(params.get("ids", params.get("keys", ()))), started)

    def total(self, names: Sequence[str]) -> float:
        """Seconds of the writes (single or together in one transaction) made of these names."""
        return sum(t.seconds for key, t in self.writes.items() if in_phase(key, names))


class TimedEmbedder(EmbeddingCaller):
    """An EmbeddingCaller that adds up the wall time of its embed calls (cache look-ups too)."""

    seconds = 0.0

    async def embed(self, texts: list[str]) -> list[list[float]]:
        started = time.perf_counter()
        try:
            return await super().embed(texts)
        finally:
            self.seconds += time.perf_counter() - started


def _embedder(settings: Settings, fake: bool, console: Console) -> TimedEmbedder:
    if fake:
        return TimedEmbedder(FakeEmbeddings(), settings.embedding, settings.cache_dir,
                             no_cache=True)
    from graphrag_neo4j.providers import resolve_embeddings

    resolved = resolve_embeddings(settings)
    console.print(f"Embedder: {resolved.description}")
    return TimedEmbedder(resolved.model, settings.embedding, settings.cache_dir)


def _empty_graph(store: Store, reset: bool) -> None:
    counts = store.read("count_graph")[0]
    if any(counts.values()) and not reset:
        raise SystemExit(
            f"The graph at {store.settings.uri} is not empty ({counts}); the benchmark wipes it,"
            " so pass --reset (and point GRAPHRAG_NEO4J__* at a server of its own)."
        )
    store.run_autocommit("delete_all")


async def _ingest(indexer: Indexer, passages: list[TripletPassage]) -> float:
    started = time.perf_counter()
    await indexer.index_triplets(passages)
    return time.perf_counter() - started


@dataclass(frozen=True)
class Floor:
    """Seconds a bare UNWIND/MATCH/MATCH/CREATE takes to write the graph's edges again."""

    related: int
    related_s: float
    mentions: int
    mentions_s: float


def _bare_create(store: Store, rows_query: str, create_query: str) -> tuple[int, float]:
    rows = store.read(rows_query)
    started = time.perf_counter()
    store.write_rows(create_query, rows)
    seconds = time.perf_counter() - started
    store.run_autocommit("bench_ingest_floor_delete")
    return len(rows), seconds


def measure_floor(store: Store) -> Floor:
    """The floor for the RELATED rows alone and for the HAS_ENTITY rows, with clean-up."""
    related = _bare_create(store, "bench_ingest_related_rows", "bench_ingest_floor_create")
    mentions = _bare_create(store, "bench_ingest_mention_rows", "bench_ingest_floor_mentions")
    return Floor(*related, *mentions)


def _statement_table(store: TimedStore, embedder: TimedEmbedder, wall: float) -> Table:
    table = Table(title=f"Where the {wall:.1f} s went")
    for header in ("statement", "calls", "rows", "seconds", "rows/s"):
        table.add_column(header, justify="left" if header == "statement" else "right")
    table.add_row("embedding (incl. cache)", "", f"{embedder.stats.texts:,}",
                  f"{embedder.seconds:.2f}", "")
    for kind, book in (("write", store.writes), ("read", store.reads)):
        for name, t in sorted(book.items(), key=lambda item: -item[1].seconds):
            rate = f"{t.rows / t.seconds:,.0f}" if t.rows and t.seconds else ""
            table.add_row(f"{kind} {name}", f"{t.calls:,}", f"{t.rows:,}", f"{t.seconds:.2f}",
                          rate)
    return table


def _phase_table(store: TimedStore, embedder: TimedEmbedder, wall: float) -> Table:
    table = Table(title="Phases")
    table.add_column("phase")
    table.add_column("seconds", justify="right")
    table.add_column("share", justify="right")
    phases = {"embedding (incl. cache)": embedder.seconds}
    phases.update({phase: store.total(names) for phase, names in PHASES.items()})
    phases["other writes"] = sum(
        t.seconds
        for key, t in store.writes.items()
        if not any(in_phase(key, names) for names in PHASES.values())
    )
    phases["reads"] = sum(t.seconds for t in store.reads.values())
    phases["python + rest"] = wall - sum(phases.values())
    for phase, seconds in phases.items():
        table.add_row(phase, f"{seconds:.2f}", f"{seconds / wall:.0%}")
    writes = sum(t.seconds for t in store.writes.values())
    table.add_section()
    table.add_row("all Neo4j writes", f"{writes:.2f}", f"{writes / wall:.0%}")
    return table


def _verdict(ok: bool) -> str:
    return "[green]ok[/green]" if ok else "[red]missed[/red]"


def _rate(relationships: int, seconds: float) -> str:
    return f"{relationships / seconds:,.0f}" if seconds else "-"


def _ratio_row(table: Table, label: str, graph_s: float, floor_s: float) -> None:
    ratio = graph_s / floor_s if floor_s else float("inf")
    table.add_row(label, f"{ratio:.2f}x",
                  f"<= {TARGET_RATIO:g}x {_verdict(ratio <= TARGET_RATIO)}")


def _rates_table(graph_s: float, floor: Floor) -> Table:
    """RELATED edges alone (strict: the graph write also creates entities and mentions), and
    all the edges the graph write creates (RELATED + HAS_ENTITY), each against its floor."""
    table = Table(title=f"Relationship write rate (graph write {graph_s:.2f} s)")
    for header in ("figure", "value", "target"):
        table.add_column(header, justify="left" if header == "figure" else "right")
    both = floor.related + floor.mentions
    rate = floor.related / graph_s if graph_s else 0.0
    table.add_row(f"RELATED/s ({floor.related:,})", f"{rate:,.0f}",
                  f">= {TARGET_RATE:,.0f} {_verdict(rate >= TARGET_RATE)}")
    table.add_row(f"RELATED + HAS_ENTITY/s ({both:,})", _rate(both, graph_s), "")
    table.add_row("floor RELATED/s", _rate(floor.related, floor.related_s),
                  f"{floor.related_s:.2f} s")
    table.add_row("floor RELATED + HAS_ENTITY/s", _rate(both, floor.related_s + floor.mentions_s),
                  f"{floor.related_s + floor.mentions_s:.2f} s")
    _ratio_row(table, "graph write / floor RELATED", graph_s, floor.related_s)
    _ratio_row(table, "graph write / floor same edges", graph_s,
               floor.related_s + floor.mentions_s)
    return table


async def run(args: argparse.Namespace, console: Console) -> None:
    """Ingest, report, optionally re-ingest to check idempotency, then measure the floor."""
    settings = load_settings()
    if args.batch_size:
        settings = settings.model_copy(update={"neo4j": settings.neo4j.model_copy(
            update={"write_batch_size": args.batch_size})})
    passages = read_triplet_corpus(args.corpus).passages[: args.limit]
    embedder = _embedder(settings, args.fake_embeddings, console)
    with TimedStore.connect(settings.neo4j) as store:
        _empty_graph(store, args.reset)
        store.apply_schema(await embedder.dimension())
        embedder.seconds = 0.0
        store.reads.clear()
        indexer = Indexer(settings, store, embedder, console=Console(stderr=True))
        load_before = os.getloadavg()[0]
        wall = await _ingest(indexer, passages)
        load_after = os.getloadavg()[0]
        console.print(_statement_table(store, embedder, wall))
        console.print(_phase_table(store, embedder, wall))
        graph_s = store.total(PHASES[GRAPH_PHASE])
        if args.twice:
            await _rerun(store, indexer, passages, console)
        console.print(_rates_table(graph_s, measure_floor(store)))
    embedder.close()
    console.print(
        f"{len(passages):,} passages, {sum(len(p.triplets) for p in passages):,} triplets, "
        f"batch {settings.neo4j.write_batch_size:,} rows, {os.cpu_count()} cores, "
        f"load average {load_before:.1f} -> {load_after:.1f}, Neo4j {settings.neo4j.uri}"
    )


async def _rerun(
    store: TimedStore,
    indexer: Indexer,
    passages: list[TripletPassage],
    console: Console,
) -> None:
    """Index everything again over the existing graph: nothing may change."""
    first = store.read("bench_ingest_fingerprint")[0]
    store.write("forget_indexed_documents")
    store.writes.clear()
    wall = await _ingest(indexer, passages)
    again = store.read("bench_ingest_fingerprint")[0]
    graph_s = store.total(PHASES[GRAPH_PHASE])
    console.print(f"Re-run over the same graph: {wall:.1f} s, graph write {graph_s:.2f} s.")
    if again != first:
        changed = {k: (first[k], again[k]) for k in first if first[k] != again[k]}
        raise SystemExit(f"The re-run changed the graph (first, second): {changed}")
    console.print(f"[green]Idempotent[/green]: the re-run left the graph unchanged ({first}).")
    store.writes.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="Triplet corpus (JSONL).")
    parser.add_argument("--limit", type=int, default=None, help="Only the first N passages.")
    parser.add_argument("--fake-embeddings", action="store_true",
                        help="Hashed bag-of-words vectors instead of the configured embedder.")
    parser.add_argument("--batch-size", type=int, default=None,
                        help="Override settings.neo4j.write_batch_size.")
    parser.add_argument("--twice", action="store_true",
                        help="Index again over the result and check nothing changed.")
    parser.add_argument("--reset", action="store_true", help="Wipe a non-empty graph first.")
    asyncio.run(run(parser.parse_args(), Console()))


if __name__ == "__main__":
    main()
