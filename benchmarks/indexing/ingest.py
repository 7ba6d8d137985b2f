"""Ingest throughput on MuSiQue: embedding vs Neo4j write time, writes vs a bare CREATE floor.

Run against a Neo4j of its own (the graph is wiped, so --reset is required when it is not empty):
  .venv/bin/python benchmarks/indexing/ingest.py --reset [--fake-embeddings] [--limit N] [--twice]
                                           [--warmup N]
The real Indexer ingests /work/shared/data/musique/corpus.jsonl (1,890 passages, 17,234 triplets)
with every Neo4j statement and embedding call timed: wall seconds, this process's CPU seconds
and, for a local server, Neo4j's CPU seconds (steadier than wall time on a busy machine). Then
the graph's edges are written again by a bare UNWIND/MATCH/MATCH/CREATE as the floor
(cypher/bench_ingest_floor_*.cypher: the RELATED rows, then the HAS_ENTITY rows) and removed.
The offline embedder takes ~5 min cold; its vectors are cached in settings.cache_dir by content
hash, so re-runs only pay the writes. --fake-embeddings isolates the writes without any model.
--twice indexes everything again over the result and fails unless the graph is unchanged.
Target: the graph write (entities, mentions, relations, merges) >= 10,000 relationships/s and
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

from benchmarks.indexing.graph_reset import empty_graph
from graphrag_neo4j.database.server.config import server_config_from_settings
from graphrag_neo4j.database.store import Row, Store
from graphrag_neo4j.indexing.indexer import Indexer
from graphrag_neo4j.indexing.input.triplet_corpus import TripletPassage, read_triplet_corpus
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.testing import FakeEmbeddings
from graphrag_neo4j.settings import Settings, load_settings

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "data" / "musique" / "corpus.jsonl"
TARGET_RATE = 10_000.0
TARGET_RATIO = 3.0
GRAPH_PHASE = "graph (entities, mentions, relations, merges)"
PHASES = {
    "documents + chunks": (
        "indexing/documents/merge_documents",
        "indexing/documents/merge_chunks",
        "indexing/documents/link_next_chunks",
    ),
    GRAPH_PHASE: (
        "indexing/entities/merge_entity_mentions",
        "indexing/relations/merge_relation_mentions",
        "indexing/merges/record_merges",
    ),
    "descriptions + vectors": (
        "indexing/entities/set_entity_descriptions",
        "indexing/relations/set_relation_descriptions",
    ),
}


@dataclass
class Timing:
    """Calls, rows, wall seconds and CPU seconds (ours, Neo4j's) of one statement or phase."""

    calls: int = 0
    rows: int = 0
    seconds: float = 0.0
    client_cpu: float = 0.0
    server_cpu: float = 0.0

    def add(self, other: Timing) -> None:
        """Add another timing into this one."""
        self.calls += other.calls
        self.rows += other.rows
        self.seconds += other.seconds
        self.client_cpu += other.client_cpu
        self.server_cpu += other.server_cpu


class Clock:
    """Wall time, this process's CPU time and the local Neo4j JVM's CPU time (Linux /proc)."""

    def __init__(self, server_pid: int | None) -> None:
        self.server_stat = Path(f"/proc/{server_pid}/stat") if server_pid else None
        self.ticks = os.sysconf("SC_CLK_TCK")

    def server_cpu(self) -> float:
        """CPU seconds the server has used so far; 0 when it is not a local process."""
        if self.server_stat is None or not self.server_stat.exists():
            return 0.0
        fields = self.server_stat.read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.ticks

    def now(self) -> tuple[float, float, float]:
        """(wall, client CPU, server CPU) seconds, to subtract from a later reading."""
        return time.perf_counter(), time.process_time(), self.server_cpu()

    def since(self, start: tuple[float, float, float], calls: int = 1, rows: int = 0) -> Timing:
        """What passed since `start`."""
        wall, client, server = (b - a for a, b in zip(start, self.now(), strict=True))
        return Timing(calls, rows, wall, client, server)


def _server_pid(settings: Settings) -> int | None:
    try:
        text = server_config_from_settings(settings).pid_file.read_text()
        return int(text.split()[0])
    except (OSError, ValueError, IndexError):
        return None


def in_phase(key: str, names: Sequence[str]) -> bool:
    """Whether a timing key (one name, or names joined by ' + ') belongs to a phase."""
    return all(part in names for part in key.split(" + "))


class TimedStore(Store):
    """A Store that adds up the time of every statement by name."""

    clock: Clock

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.writes: dict[str, Timing] = defaultdict(Timing)
        self.reads: dict[str, Timing] = defaultdict(Timing)

    def write(self, name: str, **params: Any) -> list[Row]:
        start = self.clock.now()
        try:
            return super().write(name, **params)
        finally:
            self.writes[name].add(self.clock.since(start, rows=len(params.get("rows", ()))))

    def write_together(self, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[Row]]:
        start = self.clock.now()
        try:
            return super().write_together(steps)
        finally:
            name = " + ".join(dict.fromkeys(step for step, _ in steps))
            rows = sum(len(params.get("rows", ())) for _, params in steps)
            self.writes[name].add(self.clock.since(start, rows=rows))

    def read(self, name: str, **params: Any) -> list[Row]:
        start = self.clock.now()
        try:
            return super().read(name, **params)
        finally:
            rows = len(params.get("ids", params.get("keys", ())))
            self.reads[name].add(self.clock.since(start, rows=rows))

    def phase(self, names: Sequence[str]) -> Timing:
        """The writes (single or together in one transaction) made only of these statements."""
        total = Timing()
        for key, timing in self.writes.items():
            if in_phase(key, names):
                total.add(timing)
        return total


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
    from graphrag_neo4j.llm.providers import resolve_embeddings

    resolved = resolve_embeddings(settings)
    console.print(f"Embedder: {resolved.description}")
    return TimedEmbedder(resolved.model, settings.embedding, settings.cache_dir)


async def _ingest(indexer: Indexer, passages: list[TripletPassage]) -> float:
    started = time.perf_counter()
    await indexer.index_triplets(passages)
    return time.perf_counter() - started


def _bare_create(store: TimedStore, rows_query: str, create_query: str) -> Timing:
    rows = store.read(rows_query)
    start = store.clock.now()
    store.write_rows(create_query, rows)
    timing = store.clock.since(start, rows=len(rows))
    store.run_autocommit("bench/ingest/ingest_floor_delete")
    return timing


def measure_floor(store: TimedStore) -> tuple[Timing, Timing]:
    """The floor for the RELATED rows and for the HAS_ENTITY rows, each cleaned up after."""
    related = _bare_create(
        store, "bench/ingest/ingest_related_rows", "bench/ingest/ingest_floor_create"
    )
    mentions = _bare_create(
        store, "bench/ingest/ingest_mention_rows", "bench/ingest/ingest_floor_mentions"
    )
    return related, mentions


def _table(title: str, headers: Sequence[str]) -> Table:
    table = Table(title=title)
    for index, header in enumerate(headers):
        table.add_column(header, justify="left" if index == 0 else "right")
    return table


def _cpu(timing: Timing) -> tuple[str, str]:
    return f"{timing.client_cpu:.2f}", f"{timing.server_cpu:.2f}"


def _statement_table(store: TimedStore, embedder: TimedEmbedder, wall: float) -> Table:
    table = _table(f"Where the {wall:.1f} s went",
                   ("statement", "calls", "rows", "seconds", "rows/s", "our CPU", "Neo4j CPU"))
    table.add_row("embedding (incl. cache)", "", f"{embedder.stats.texts:,}",
                  f"{embedder.seconds:.2f}", "", "", "")
    for kind, book in (("write", store.writes), ("read", store.reads)):
        for name, t in sorted(book.items(), key=lambda item: -item[1].seconds):
            rate = f"{t.rows / t.seconds:,.0f}" if t.rows and t.seconds else ""
            table.add_row(f"{kind} {name}", f"{t.calls:,}", f"{t.rows:,}", f"{t.seconds:.2f}",
                          rate, *_cpu(t))
    return table


def _phase_table(store: TimedStore, embedder: TimedEmbedder, wall: float) -> Table:
    table = _table("Phases", ("phase", "seconds", "share", "our CPU", "Neo4j CPU"))
    phases = {phase: store.phase(names) for phase, names in PHASES.items()}
    other = Timing()
    for key, timing in store.writes.items():
        if not any(in_phase(key, names) for names in PHASES.values()):
            other.add(timing)
    reads = Timing()
    for timing in store.reads.values():
        reads.add(timing)
    phases.update({"other writes": other, "reads": reads})
    table.add_row("embedding (incl. cache)", f"{embedder.seconds:.2f}",
                  f"{embedder.seconds / wall:.0%}", "", "")
    for phase, t in phases.items():
        table.add_row(phase, f"{t.seconds:.2f}", f"{t.seconds / wall:.0%}", *_cpu(t))
    rest = wall - embedder.seconds - sum(t.seconds for t in phases.values())
    table.add_row("python + rest", f"{rest:.2f}", f"{rest / wall:.0%}", "", "")
    writes = Timing()
    for timing in store.writes.values():
        writes.add(timing)
    table.add_section()
    table.add_row("all Neo4j writes", f"{writes.seconds:.2f}", f"{writes.seconds / wall:.0%}",
                  *_cpu(writes))
    return table


def _verdict(ok: bool) -> str:
    return "[green]ok[/green]" if ok else "[red]missed[/red]"


def _rate(relationships: int, seconds: float) -> str:
    return f"{relationships / seconds:,.0f}" if seconds else "-"


def _ratio(graph: float, floor: float) -> str:
    ratio = graph / floor if floor else float("inf")
    return f"{ratio:.2f}x {_verdict(ratio <= TARGET_RATIO)}"


def _rates_table(graph: Timing, related: Timing, mentions: Timing) -> Table:
    """RELATED edges alone (strict: the graph write also creates the entities and mentions),
    and every edge the graph write creates (RELATED + HAS_ENTITY), each against its floor."""
    edges = related.rows + mentions.rows
    both = Timing()
    both.add(related)
    both.add(mentions)
    table = _table(f"Relationship write rate (targets >= {TARGET_RATE:,.0f}/s, floor ratio <= "
                   f"{TARGET_RATIO:g}x)", ("figure", "seconds", "our + Neo4j CPU", "edges/s",
                                            "wall vs floor", "CPU vs floor"))
    graph_cpu = graph.client_cpu + graph.server_cpu
    for label, floor in ((f"RELATED ({related.rows:,})", related),
                         (f"RELATED + HAS_ENTITY ({edges:,})", both)):
        rate = floor.rows / graph.seconds if graph.seconds else 0.0
        floor_cpu = floor.client_cpu + floor.server_cpu
        table.add_row(f"graph write, {label}", f"{graph.seconds:.2f}", f"{graph_cpu:.2f}",
                      f"{rate:,.0f} {_verdict(rate >= TARGET_RATE)}",
                      _ratio(graph.seconds, floor.seconds), _ratio(graph_cpu, floor_cpu))
        table.add_row(f"floor, {label}", f"{floor.seconds:.2f}", f"{floor_cpu:.2f}",
                      _rate(floor.rows, floor.seconds), "", "")
    return table


async def run(args: argparse.Namespace, console: Console) -> None:
    """Ingest, report, optionally re-ingest to check idempotency, then measure the floor."""
    settings = load_settings()
    if args.batch_size:
        neo4j = settings.neo4j.model_copy(update={"write_batch_size": args.batch_size})
        settings = settings.model_copy(update={"neo4j": neo4j})
    passages = read_triplet_corpus(args.corpus).passages[: args.limit]
    embedder = _embedder(settings, args.fake_embeddings, console)
    with TimedStore.connect(settings.neo4j) as store:
        store.clock = Clock(_server_pid(settings))
        empty_graph(store, args.reset)
        store.apply_schema(await embedder.dimension())
        indexer = Indexer(settings, store, embedder, console=Console(stderr=True))
        if args.warmup != 0:
            await _warm_up(store, indexer, passages[: args.warmup], console)
        embedder.seconds = 0.0
        store.reads.clear()
        store.writes.clear()
        load_before = os.getloadavg()[0]
        wall = await _ingest(indexer, passages)
        load_after = os.getloadavg()[0]
        console.print(_statement_table(store, embedder, wall))
        console.print(_phase_table(store, embedder, wall))
        graph = store.phase(PHASES[GRAPH_PHASE])
        if args.twice:
            await _rerun(store, indexer, passages, console)
        console.print(_rates_table(graph, *measure_floor(store)))
    embedder.close()
    console.print(
        f"{len(passages):,} passages, {sum(len(p.triplets) for p in passages):,} triplets, "
        f"batch {settings.neo4j.write_batch_size:,} rows, {os.cpu_count()} cores, "
        f"load average {load_before:.1f} -> {load_after:.1f}, Neo4j {settings.neo4j.uri}"
    )


async def _warm_up(
    store: TimedStore, indexer: Indexer, passages: list[TripletPassage], console: Console
) -> None:
    """Index a few passages and wipe them: a freshly started JVM spends its first seconds
    compiling the write path, which would otherwise be charged to the measured run."""
    wall = await _ingest(indexer, passages)
    graph = store.phase(PHASES[GRAPH_PHASE])
    store.run_autocommit("database/delete_all")
    console.print(f"Warm-up: {len(passages):,} passages indexed in {wall:.1f} s (graph write "
                  f"{graph.rows / graph.seconds:,.0f} rows/s) and wiped; --warmup 0 measures "
                  "a cold server instead.")


async def _rerun(
    store: TimedStore, indexer: Indexer, passages: list[TripletPassage], console: Console
) -> None:
    """Index everything again over the existing graph: nothing may change."""
    first = store.read("bench/ingest/ingest_fingerprint")[0]
    store.write("indexing/documents/forget_indexed_documents")
    store.writes.clear()
    wall = await _ingest(indexer, passages)
    again = store.read("bench/ingest/ingest_fingerprint")[0]
    graph = store.phase(PHASES[GRAPH_PHASE]).seconds
    described = store.phase(PHASES["descriptions + vectors"]).seconds
    console.print(f"Re-run over the same graph: {wall:.1f} s; graph write {graph:.2f} s, "
                  f"descriptions + vectors {described:.2f} s.")
    if again != first:
        changed = {k: (first[k], again[k]) for k in first if first[k] != again[k]}
        raise SystemExit(f"The re-run changed the graph (first, second): {changed}")
    console.print(f"[green]Idempotent[/green]: the re-run left the graph unchanged ({first}).")


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
    parser.add_argument("--warmup", type=int, default=None,
                        help="Passages indexed and wiped before measuring (default: all of "
                        "them; 0 = measure a cold server).")
    asyncio.run(run(parser.parse_args(), Console(width=120)))


if __name__ == "__main__":
    main()
