"""Documents -> batches bounded in documents and in chunks, a long document split across several,
so a run's memory is set by the batch size, not by the corpus or the size of one file."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from graphrag_neo4j.indexing.records import Chunk, Document

DOCUMENTS_PER_BATCH = 100
# A 20 MB text is one document of ~4,500 chunks: indexed whole, its embeddings, parses,
# mentions and resolution were all held at once. 64 windows of 1,200 tokens is ~300 KB of
# text; at 256 a text dense in names (every name repeated: 20 MB of 2Wiki's passages as one
# file) made one batch's mentions 2.6 GB in the indexer and more than Neo4j's 1.4 GB of
# transaction memory.
CHUNKS_PER_BATCH = 64


@dataclass(frozen=True)
class BatchPlan:
    """One batch: its documents, the chunks of each it holds, the chunk before the first of a
    document continued from the batch before, and the documents it finishes."""

    documents: list[Document]
    chunks: dict[str, list[Chunk]]
    preceding: dict[str, Chunk]
    finished: list[str]


def plan_batches(
    documents: Sequence[Document], chunks: Mapping[str, Sequence[Chunk]],
    starts: Mapping[str, int] | None = None,
    max_documents: int = DOCUMENTS_PER_BATCH, max_chunks: int = CHUNKS_PER_BATCH,
) -> Iterator[BatchPlan]:
    """Batches in document order: up to `max_documents` documents and `max_chunks` chunks each
    (a document with no chunks still counts as one); a longer document is split in pieces.
    `starts`: the position a half-written document resumes at (its earlier chunks are in the
    graph already)."""
    plan = BatchPlan([], {}, {}, [])
    room = max(1, max_chunks)
    for document in documents:
        own = list(chunks[document.id])
        start = (starts or {}).get(document.id, 0)
        while True:
            if len(plan.documents) >= max_documents or room == 0:
                yield plan
                plan, room = BatchPlan([], {}, {}, []), max(1, max_chunks)
            piece = own[start : start + room]
            plan.documents.append(document)
            plan.chunks[document.id] = piece
            if start:
                plan.preceding[document.id] = own[start - 1]
            start += len(piece)
            room -= len(piece)
            if start >= len(own):
                plan.finished.append(document.id)
                break
    if plan.documents:
        yield plan
