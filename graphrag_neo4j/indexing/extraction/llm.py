"""Chunk -> tagged LLM extraction (with gleaning) -> grounded entity and relation mentions."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from graphrag_neo4j.indexing.extraction.schema import ExtractionSchema
from graphrag_neo4j.indexing.extraction.tag_parser import (
    ExtractedTriplet,
    ParsedExtraction,
    parse_extraction,
)
from graphrag_neo4j.indexing.records import (
    Chunk,
    ChunkExtraction,
    EntityMention,
    RelationMention,
    normalize_name,
    normalize_type,
)
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.reply_guards import repeating_lines
from graphrag_neo4j.runtime.resources import load_prompt
from graphrag_neo4j.settings import ExtractionSettings

STAGE = "extract"
GLEAN_STAGE = "glean"
STOP_RULE = repeating_lines
logger = logging.getLogger(__name__)
_WORD = re.compile(r"\w{3,}", flags=re.UNICODE)


@dataclass(frozen=True)
class Extractor:
    """Turns chunks into mentions with one LLM call plus the configured gleaning passes."""

    llm: LLMCaller
    settings: ExtractionSettings
    prompts_dir: Path | None = None

    def _language_rule(self) -> str:
        if self.settings.language:
            return f"Write names and descriptions in {self.settings.language}."
        return "Write names and descriptions in the language of the text."

    def _format(self, template: str, chunk: Chunk, previous: str = "") -> str:
        schema = ExtractionSchema.from_settings(self.settings.schema_)
        return load_prompt(template, self.prompts_dir).format(
            entity_types=schema.type_list() if schema else ", ".join(self.settings.entity_types),
            relation_rule=schema.relation_rule() if schema else "",
            language_rule=self._language_rule(),
            text=chunk.text,
            previous=previous,
        )

    def extraction_prompt(self, chunk: Chunk) -> str:
        """The first request of a chunk (sent with `stop_when=STOP_RULE`)."""
        return self._format("indexing/extract_graph", chunk)

    def gleaning_prompt(self, chunk: Chunk, replies: list[str]) -> str:
        """The next 'what did you miss' request after these replies."""
        return self._format("indexing/glean_graph", chunk, "\n".join(replies))

    async def extract(self, chunk: Chunk) -> ChunkExtraction:
        """All records the model finds in `chunk`, gleaning until it has nothing to add."""
        reply = await self.llm.complete(
            self.extraction_prompt(chunk), stage=STAGE, stop_when=STOP_RULE
        )
        replies = [reply]
        parsed = [parse_extraction(reply)]
        for _ in range(self.settings.gleaning_passes):
            more = await self.llm.complete(
                self.gleaning_prompt(chunk, replies), stage=GLEAN_STAGE, stop_when=STOP_RULE
            )
            found = parse_extraction(more)
            if gleaning_done(found):
                break
            replies.append(more)
            parsed.append(found)
        result = to_mentions(chunk, parsed, self.settings.orphan_triplets)
        if result.dropped_records:
            logger.warning(
                "Chunk %s (document %s, #%d): dropped %d malformed or ungrounded records from"
                " the LLM reply; the rest were kept.",
                chunk.id, chunk.document_id, chunk.chunk_index, result.dropped_records,
            )
        return result


def gleaning_done(found: ParsedExtraction) -> bool:
    """Whether a gleaning reply ends the passes: the model said so or added nothing."""
    return found.no_more or not (found.entities or found.triplets)


def _grounded(name: str, text_words: set[str]) -> bool:
    """A name shares at least one word with its chunk, so copied or invented names are dropped."""
    words = set(_WORD.findall(normalize_name(name)))
    return not words or bool(words & text_words)


def to_mentions(
    chunk: Chunk, parsed: list[ParsedExtraction], orphan_policy: str
) -> ChunkExtraction:
    """Combine parsed replies into deduplicated, grounded mentions of one chunk."""
    result = ChunkExtraction(chunk_id=chunk.id)
    text_words = set(_WORD.findall(normalize_name(chunk.text)))
    known: dict[str, EntityMention] = {}
    variants: dict[str, EntityMention] = {}
    for part in parsed:
        result.dropped_records += part.dropped_entities + part.dropped_triplets
        for entity in part.entities:
            key = normalize_name(entity.name)
            if not key or not _grounded(entity.name, text_words):
                result.dropped_records += 1
                continue
            if key not in known:
                known[key] = EntityMention(
                    chunk.id, entity.name.strip(), normalize_type(entity.type), entity.description
                )
            _note_spelling(known[key], entity.name, variants)
    for part in parsed:
        for triplet in part.triplets:
            relation = _relation(chunk, triplet, known, orphan_policy, result)
            if relation is not None:
                result.relations.append(relation)
                _note_spelling(known[normalize_name(triplet.subject)], triplet.subject, variants)
                _note_spelling(known[normalize_name(triplet.object)], triplet.object, variants)
    result.entities = list(known.values()) + list(variants.values())
    return result


def _note_spelling(
    mention: EntityMention, spelling: str, variants: dict[str, EntityMention]
) -> None:
    """Keep other spellings of a name as mentions too, so their merge gets recorded."""
    spelling = spelling.strip()
    if spelling != mention.name and spelling not in variants:
        variants[spelling] = EntityMention(mention.chunk_id, spelling, mention.type, "")


def _relation(
    chunk: Chunk,
    triplet: ExtractedTriplet,
    known: dict[str, EntityMention],
    orphan_policy: str,
    result: ChunkExtraction,
) -> RelationMention | None:
    subject, predicate, obj = triplet.subject, triplet.predicate, triplet.object
    ends = [normalize_name(subject), normalize_name(obj)]
    if ends[0] == ends[1]:
        result.dropped_records += 1  # a thing related to itself says nothing
        return None
    missing = [end for end in ends if end not in known]
    if missing and orphan_policy == "drop":
        result.orphans_dropped += 1
        return None
    for end_key, end_name in zip(ends, (subject, obj), strict=True):
        if end_key not in known:
            known[end_key] = EntityMention(chunk.id, end_name.strip(), "unknown", "")
            result.orphans_added += 1
    return RelationMention(
        chunk_id=chunk.id,
        subject=known[ends[0]].name,
        predicate=predicate.strip(),
        object=known[ends[1]].name,
        description=triplet.description,
        strength=float(triplet.strength),
    )
