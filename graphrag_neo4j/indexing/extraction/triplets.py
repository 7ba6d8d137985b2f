"""Triplets the input brings, as chunk mentions: they travel the same path as LLM extractions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphrag_neo4j.indexing.extraction.base import (
    Advance,
    Batch,
    DescriptionStyle,
    IndexingServices,
)
from graphrag_neo4j.indexing.extraction.rows import EXTRACTION_ROW, GLEANING_ROW
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction, EntityMention, RelationMention
from graphrag_neo4j.llm.costs.estimate import StageEstimate
from graphrag_neo4j.runtime.errors import InputError

if TYPE_CHECKING:
    from graphrag_neo4j.llm.costs.profile import ModelProfile

UNKNOWN_TYPE = "unknown"


def _home_chunk(chunks: Sequence[Chunk], subject: str, obj: str) -> Chunk:
    """The first chunk naming both ends, else one end, else the document's first chunk."""
    lowered = [(chunk, chunk.text.casefold()) for chunk in chunks]
    for wanted in ((subject, obj), (subject,), (obj,)):
        for chunk, text in lowered:
            if all(part.casefold() in text for part in wanted):
                return chunk
    return chunks[0]


def extractions_from_triplets(
    chunks: Sequence[Chunk], triplets: Sequence[tuple[str, str, str]]
) -> list[ChunkExtraction]:
    """One extraction per chunk holding the triplets that belong to it, with untyped entities."""
    extractions = {chunk.id: ChunkExtraction(chunk_id=chunk.id) for chunk in chunks}
    if not chunks:
        return []
    seen: dict[str, set[str]] = {chunk.id: set() for chunk in chunks}
    for subject, predicate, obj in triplets:
        chunk = _home_chunk(chunks, subject, obj) if len(chunks) > 1 else chunks[0]
        extraction = extractions[chunk.id]
        for name in (subject, obj):
            if name not in seen[chunk.id]:
                seen[chunk.id].add(name)
                extraction.entities.append(EntityMention(chunk.id, name, UNKNOWN_TYPE, ""))
        extraction.relations.append(RelationMention(chunk.id, subject, predicate, obj))
    return list(extractions.values())


def placed_triplets(
    work: Sequence[tuple[Sequence[Chunk], Sequence[tuple[str, str, str]]]],
    advance: Advance | None = None,
) -> list[ChunkExtraction]:
    """The extractions of each (document's chunks, its triplets), one document after another."""
    extractions = []
    for chunks, triplets in work:
        extractions += extractions_from_triplets(chunks, triplets)
        if advance is not None:
            advance(len(chunks))
    return extractions


@dataclass
class TripletExtraction:
    """The subject-predicate-object triplets each passage brings, as untyped mentions; no LLM."""

    services: IndexingServices
    name = "triplets"
    description = (
        "Passages that bring their own subject-predicate-object triplets (`index --triplets "
        "FILE.jsonl`): the triplets become the graph, a triplet to a value (a year, a number, a "
        "phrase) a fact on its entity; no LLM, no NLP.")
    progress_label = "extract (triplets)"
    needs_llm = False
    llm_extracted = False
    cooccurrence_relations = False  # each triplet is a fact its passage states
    folds_aliases = False
    embeds_relations = True
    # An entity's description is its value facts ("presented in 1854"): its vector stays its
    # name, which the question's names match (facts diluted them on MuSiQue).
    description_style = DescriptionStyle(vector_words=0, llm_summaries=False)

    async def extract(self, batch: Batch, advance: Advance) -> list[ChunkExtraction]:
        """Each document's triplets placed in the chunk that names them."""
        for document in batch.documents:
            if document.id not in batch.triplets:
                raise InputError(
                    f"Document {document.id!r} brings no triplets: the triplets method reads "
                    "passages with their own (`graphrag-neo4j index --triplets FILE.jsonl`); "
                    "index plain documents with another method."
                )
        work = [(batch.chunks[d.id], batch.triplets[d.id]) for d in batch.documents]
        execution = self.services.settings.execution
        if not execution.ray:
            return placed_triplets(work, advance)
        from graphrag_neo4j.indexing.cluster.tasks import cluster_map, part_size

        size = part_size(len(work), execution)  # documents per task: a passage is a chunk or two
        parts = [work[start : start + size] for start in range(0, len(work), size)]
        return [extraction for found in cluster_map(
            placed_triplets, ((part,) for part in parts), execution,
            lambda found: advance(len(found)))
            for extraction in found]

    def estimate(
        self, chunks: Sequence[Chunk], profile: ModelProfile  # noqa: ARG002 (no model call)
    ) -> list[StageEstimate]:
        """No model calls: the triplets come with the input."""
        return [StageEstimate(EXTRACTION_ROW, note="triplets: given with the input, no LLM"),
                StageEstimate(GLEANING_ROW, note="triplets: no LLM")]
