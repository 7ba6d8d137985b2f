"""Imports a Microsoft GraphRAG index into our graph model: batched, idempotent, embedded."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.table import Table

from graphrag_neo4j.communities.writer import MEMBERS_PER_BATCH
from graphrag_neo4j.indexing.graph.type_labels import TypeLabels
from graphrag_neo4j.indexing.graph.writer import group_relation_mentions, next_chunk_rows
from graphrag_neo4j.indexing.interop.msgraphrag_rows import GraphRows, graph_rows
from graphrag_neo4j.indexing.interop.msgraphrag_tables import TABLES, MsOutput
from graphrag_neo4j.indexing.records import Chunk
from graphrag_neo4j.runtime.progress import StageProgress

if TYPE_CHECKING:
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.indexing.interop.msgraphrag_tables import Row
    from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller

# Their table -> the count_import column that shows where its rows went.
GRAPH_COUNT = {
    "documents": "documents", "text_units": "chunks", "entities": "entities",
    "relationships": "relationships", "communities": "communities",
    "community_reports": "reports", "covariates": "covariates",
}
Advance = Callable[[int], None]


@dataclass
class ImportReport:
    """What an import read and what the graph holds afterwards."""

    folder: Path
    read: dict[str, int] = field(default_factory=dict)
    graph: dict[str, int] = field(default_factory=dict)
    placeholders: list[str] = field(default_factory=list)

    def table(self) -> Table:
        """Rows read per table beside what Neo4j now holds for it."""
        table = Table("table", "rows read", "in Neo4j now", title=f"Imported {self.folder}")
        for name in TABLES:
            read = f"{self.read[name]:,}" if name in self.read else "absent"
            table.add_row(name, read, f"{self.graph.get(GRAPH_COUNT[name], 0):,}")
        if self.placeholders:
            table.add_row("(placeholders)", "", f"{len(self.placeholders):,}")
            table.caption = (
                "Placeholder entities stand for relationship ends missing from entities.parquet: "
                + ", ".join(self.placeholders)
            )
        return table


async def _embed(embedder: EmbeddingCaller, rows: list[Row], advance: Advance) -> None:
    """Give each row the vector of its `embedding_text` (cached, so a re-import is free)."""
    vectors = await embedder.embed([row["embedding_text"] for row in rows])
    for row, vector in zip(rows, vectors, strict=True):
        row["embedding"] = vector
    advance(len(rows))


def _write(store: Store, name: str, rows: list[Row], advance: Advance | None = None) -> None:
    store.write_rows(name, rows, on_batch=advance)


def _chunk_links(rows: list[Row]) -> list[Row]:
    chunks = [Chunk(r["id"], r["document_id"], r["text"], r["chunk_index"], r["n_tokens"])
              for r in rows]
    return next_chunk_rows(chunks)


def _write_text(store: Store, rows: GraphRows, progress: StageProgress) -> None:
    with progress.stage("documents", len(rows.documents)) as advance:
        _write(store, "interop/import_documents", rows.documents, advance)
    with progress.stage("text_units", len(rows.chunks)) as advance:
        _write(store, "indexing/documents/merge_chunks", rows.chunks, advance)
        _write(store, "indexing/documents/link_next_chunks", _chunk_links(rows.chunks))


def _write_entities(
    store: Store, rows: GraphRows, progress: StageProgress, type_labels: TypeLabels
) -> None:
    entities = rows.entities + rows.placeholders
    with progress.stage("entities", len(entities)) as advance:
        _write(store, "interop/import_entities", entities)
        store.write_rows("indexing/types/set_type_labels", [{"id": e["id"]} for e in entities],
                         **type_labels.params())
        _write(store, "indexing/entities/merge_entity_mentions", rows.mentions)
        _write(store, "indexing/entities/set_entity_descriptions", entities, advance)
        store.run_autocommit("indexing/entities/await_name_index")
    with progress.stage("relationships", len(rows.relations)) as advance:
        mentions = group_relation_mentions(rows.relation_mentions)
        _write(store, "indexing/relations/merge_relation_mentions", mentions)
        _write(store, "indexing/relations/set_relation_descriptions", rows.relations, advance)


def _write_communities(store: Store, rows: GraphRows, progress: StageProgress) -> None:
    with progress.stage("communities", len(rows.communities)) as advance:
        _write(store, "interop/import_communities", rows.communities)
        per_batch = max(1, MEMBERS_PER_BATCH // max(1, max((r["size"] for r in rows.communities),
                                                             default=1)))
        store.write_rows(
            "communities/build/link_community_members", rows.communities, batch_size=per_batch
        )
        _write(store, "communities/build/link_community_parents", rows.communities)
        store.write_rows(
            "communities/build/set_community_weights",
            rows.communities,
            batch_size=200,
            on_batch=advance,
        )
    with progress.stage("community_reports", len(rows.reports)) as advance:
        _write(store, "communities/reports/set_community_reports", rows.reports, advance)
    with progress.stage("covariates", len(rows.covariates)) as advance:
        _write(store, "interop/import_covariates", rows.covariates, advance)


async def _embed_all(embedder: EmbeddingCaller, rows: GraphRows, progress: StageProgress) -> None:
    for row in rows.chunks:
        row["embedding_text"] = row["text"]
    groups = [rows.chunks, rows.entities, rows.placeholders, rows.relations, rows.reports]
    with progress.stage("embeddings", sum(len(g) for g in groups)) as advance:
        for group in groups:
            await _embed(embedder, group, advance)


async def import_msgraphrag(
    store: Store, embedder: EmbeddingCaller, output: MsOutput, progress: StageProgress,
    type_labels: TypeLabels | None = None,
) -> ImportReport:
    """Embed what the tables lack and write them; running it again changes nothing.

    Entities whose type is on `type_labels`' whitelist get its label (none without one)."""
    rows = graph_rows(output)
    report = ImportReport(output.folder, {n: len(output.rows(n)) for n in output.tables})
    report.placeholders = [p["name"] for p in rows.placeholders]
    await _embed_all(embedder, rows, progress)
    await asyncio.to_thread(_write_text, store, rows, progress)
    await asyncio.to_thread(_write_entities, store, rows, progress,
                            type_labels or TypeLabels.from_types([], enabled=False))
    await asyncio.to_thread(_write_communities, store, rows, progress)
    counts: list[dict[str, Any]] = await asyncio.to_thread(store.read, "interop/count_import")
    report.graph = dict(counts[0])
    return report
