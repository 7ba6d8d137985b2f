"""The engine's records: documents, chunks, extracted mentions, resolved graph rows."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from graphrag_neo4j.database.content_ids import content_id

_QUOTES = "\"'`“”‘’«»„‟‹›"
_DROP_QUOTES = {ord(q): None for q in _QUOTES}
_PUNCTUATION = re.compile(r"[^\w\s&+#-]", flags=re.UNICODE)
_SPACES = re.compile(r"\s+")


def normalize_name(name: str) -> str:
    """The comparison key of an entity name: case, quotes, punctuation and spaces folded.

    A name made only of symbols ("🚀", "!!!") keeps its symbols (case and spaces folded), so
    different such names never collapse into one entity under an empty key.
    """
    folded = unicodedata.normalize("NFKC", name).casefold()
    text = folded.strip(_QUOTES + " ").translate(_DROP_QUOTES)
    text = _SPACES.sub(" ", _PUNCTUATION.sub(" ", text)).strip()
    if not text:
        return _SPACES.sub(" ", folded).strip()
    return text.removeprefix("the ") if text != "the" else text


def normalize_type(entity_type: str) -> str:
    """Entity types compare in lower case without surrounding spaces; empty means unknown."""
    folded = _SPACES.sub(" ", entity_type.strip().casefold())
    return folded or "unknown"


def entity_id(name: str, entity_type: str) -> str:
    """The id of the entity with this normalised name and type."""
    return content_id("entity", normalize_name(name), normalize_type(entity_type))


def relation_id(source_id: str, predicate: str, target_id: str) -> str:
    """The id of a RELATED edge: same endpoints and same normalised predicate = same edge."""
    return content_id("relation", source_id, normalize_name(predicate), target_id)


@dataclass(frozen=True)
class Place:
    """Where a stretch of a document's text starts: its page (PDF pages, slides; None when the
    format has none) and its heading path ("Install > Upgrading"; "" before any heading)."""

    start: int
    page: int | None = None
    section: str = ""


@dataclass(frozen=True)
class Document:
    """One input text with where it came from; `places` mark where pages and sections start,
    in text order (empty for a format without pages or headings)."""

    id: str
    title: str
    source: str
    text: str
    places: tuple[Place, ...] = ()

    @property
    def content_hash(self) -> str:
        """Hash of the text alone, to notice an edited document under the same id."""
        return content_id("text", self.text)


@dataclass(frozen=True)
class Chunk:
    """One sliding window of a document: its character span there, its pages (first, last;
    None without pages) and the heading path where it starts."""

    id: str
    document_id: str
    text: str
    chunk_index: int
    n_tokens: int
    char_start: int | None = None
    char_end: int | None = None
    pages: tuple[int, int] | None = None
    section: str = ""


@dataclass(frozen=True)
class EntityMention:
    """An entity as one chunk mentions it (per-chunk provenance)."""

    chunk_id: str
    name: str
    type: str
    description: str


@dataclass(frozen=True)
class RelationMention:
    """A subject-predicate-object statement as one chunk makes it."""

    chunk_id: str
    subject: str
    predicate: str
    object: str
    description: str = ""
    strength: float = 5.0


@dataclass
class ChunkExtraction:
    """Everything extracted from one chunk, with parser counts for the run summary."""

    chunk_id: str
    entities: list[EntityMention] = field(default_factory=list)
    relations: list[RelationMention] = field(default_factory=list)
    dropped_records: int = 0
    orphans_added: int = 0
    orphans_dropped: int = 0
    refused_names: list[tuple[str, str]] = field(default_factory=list)  # (name, reason)
    value_facts: int = 0  # relations to a refused name kept as facts on the other end
    refused_reason: str | None = None  # why nothing was read from this chunk's document
