"""Pre-extracted triplets as chunk mentions, so they travel the same path as LLM extractions."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction, EntityMention, RelationMention

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
