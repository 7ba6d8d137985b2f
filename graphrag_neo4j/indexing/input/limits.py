"""Refuses ids and names too long for Neo4j's indexes, one record at a time.

Neo4j's RANGE indexes (document ids, entity names and their keys) refuse a value past about
8 KB with "Property value is too large to index", which fails the whole write transaction,
so one over-long record would leave the good documents of its batch incomplete and fail every
re-run. Such a record is refused before anything is written: a document whose id is over
`MAX_KEY_BYTES` UTF-8 bytes is skipped, and an entity mention (with the relations naming it)
whose name is over the limit is dropped, each with one warning line; the rest goes on.
Names that are no entity names (`extraction.names`) are refused here too, with a reason; a
relation from a kept name to one of them becomes a fact on that name (`extraction.facts`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from graphrag_neo4j.indexing.extraction.facts import NO_VALUE_REASONS, value_facts, with_facts
from graphrag_neo4j.indexing.extraction.names import junk_reason
from graphrag_neo4j.indexing.records import ChunkExtraction, Document

MAX_KEY_BYTES = 4096  # half of Neo4j's index key limit: names also live in composite keys
_PREVIEW = 60

logger = logging.getLogger(__name__)


def too_long(text: str) -> bool:
    """Whether a value is over the documented limit for ids and names."""
    return len(text) > MAX_KEY_BYTES // 4 and len(text.encode("utf-8")) > MAX_KEY_BYTES


def preview(text: str) -> str:
    """The start of an over-long value, for a one-line message."""
    return repr(text[:_PREVIEW] + "...")


def documents_within_limits(documents: Sequence[Document]) -> tuple[list[Document], int]:
    """The documents whose ids fit, and how many were refused (each with one warning)."""
    kept = []
    for document in documents:
        if too_long(document.id):
            logger.warning(
                "%s: the document id %s is longer than %d bytes; skipped. Give it a shorter"
                " id (or none, to use a content hash).",
                document.source[:_PREVIEW], preview(document.id), MAX_KEY_BYTES,
            )
        else:
            kept.append(document)
    return kept, len(documents) - len(kept)


def extraction_within_limits(extraction: ChunkExtraction, max_name_words: int) -> ChunkExtraction:
    """The extraction without mentions whose names are over the byte limit, or no entity names
    at all (over `max_name_words`, URLs, code, numbers, sentences: refused with a reason);
    both counted as dropped, with the relations naming them, but for a relation from a kept
    name to a refused one, which becomes a fact in that name's description."""
    names = {m.name for m in extraction.entities}
    names |= {end for r in extraction.relations for end in (r.subject, r.object)}
    long_names = {name for name in names if too_long(name)}
    refused = {name: reason for name in sorted(names - long_names)
               if (reason := junk_reason(name, max_name_words)) is not None}
    if not long_names and not refused:
        return extraction
    for name in sorted(long_names):
        logger.warning(
            "chunk %s: the entity name %s is longer than %d bytes; it and its relations"
            " are dropped.", extraction.chunk_id, preview(name), MAX_KEY_BYTES,
        )
    dropped_names = long_names | set(refused)
    values = {name for name, reason in refused.items() if reason not in NO_VALUE_REASONS}
    facts = value_facts(extraction.relations, values,
                        {m.name for m in extraction.entities} - dropped_names)
    entities = with_facts([m for m in extraction.entities if m.name not in dropped_names], facts)
    relations = [
        r for r in extraction.relations
        if r.subject not in dropped_names and r.object not in dropped_names
    ]
    dropped = (len(extraction.entities) - len(entities) + len(extraction.relations)
               - len(relations) - len(facts.relations))
    return replace(
        extraction,
        entities=entities,
        relations=relations,
        dropped_records=extraction.dropped_records + dropped,
        refused_names=[*extraction.refused_names, *refused.items()],
        value_facts=extraction.value_facts + len(facts.relations),
    )
