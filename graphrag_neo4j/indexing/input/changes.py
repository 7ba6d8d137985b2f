"""Which documents a run (re)indexes: new and changed ones; complete, unchanged ones are skipped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from graphrag_neo4j.indexing.input.chunking import chunk_document
from graphrag_neo4j.indexing.records import Chunk, Document
from graphrag_neo4j.settings import ChunkingSettings


@dataclass(frozen=True)
class WrittenPart:
    """The first `chunks` chunks of a document, written by whole batches before a run stopped;
    `last_chunk_id` tells whether the document is still cut into the same chunks."""

    chunks: int
    last_chunk_id: str


@dataclass
class Changes:
    """The documents to index, how many were skipped, which changed since stored, and which a
    failed run left half-written."""

    todo: list[Document] = field(default_factory=list)
    unchanged: int = 0
    changed: list[str] = field(default_factory=list)  # ids whose old version goes first
    incomplete: list[str] = field(default_factory=list)  # same text, never marked indexed
    # Of the incomplete ones, those whole batches wrote a part of: where that part ends.
    written: dict[str, WrittenPart] = field(default_factory=dict)
    # Unchanged ones whose chunks were written before chunks kept their span, pages, section.
    unplaced: list[Document] = field(default_factory=list)

    @property
    def cleared(self) -> list[str]:
        """Ids whose stored version goes before they are indexed again."""
        return self.changed + self.incomplete


def documents_to_index(
    documents: Sequence[Document], stored: Mapping[str, Mapping[str, Any]]
) -> Changes:
    """Each id once; `stored` holds the rows of indexing/documents/find_indexed_documents by id."""
    changes = Changes()
    for document in {d.id: d for d in documents}.values():
        row = stored.get(document.id)
        if row and row["complete"] and row["content_hash"] == document.content_hash:
            changes.unchanged += 1
            if row.get("places_missing"):
                changes.unplaced.append(document)
            continue
        if row and row["content_hash"] != document.content_hash:
            changes.changed.append(document.id)
        elif row:  # a run stopped inside a batch: what that batch wrote goes, so none is doubled
            changes.incomplete.append(document.id)
            if row.get("indexed_chunks") and row.get("last_chunk_id"):
                changes.written[document.id] = WrittenPart(int(row["indexed_chunks"]),
                                                           str(row["last_chunk_id"]))
        changes.todo.append(document)
    return changes


def chunks_to_index(changes: Changes, chunking: ChunkingSettings
                    ) -> tuple[dict[str, list[Chunk]], dict[str, int]]:
    """The chunks of the documents to index, and where half-written ones resume."""
    chunks = {d.id: chunk_document(d, chunking) for d in changes.todo}
    return chunks, resume_points(changes.written, chunks)


def resume_points(written: Mapping[str, WrittenPart],
                  chunks: Mapping[str, Sequence[Chunk]]) -> dict[str, int]:
    """Where each half-written document resumes: after the part whole batches wrote, when it is
    still cut into the same chunks (else from the start: not in the result)."""
    points = {}
    for document_id, part in written.items():
        own = chunks.get(document_id, ())
        if 0 < part.chunks <= len(own) and own[part.chunks - 1].id == part.last_chunk_id:
            points[document_id] = part.chunks
    return points
