"""Tolerant parser of the extraction tag format (<entity>/<concept> and <triplet> records)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

DEFAULT_ENTITY_TYPE = "unknown"
DEFAULT_STRENGTH = 5
MIN_STRENGTH, MAX_STRENGTH = 1, 10

_ENTITY_TAGS = ("entity", "concept")
_TRIPLET_TAGS = ("triplet",)
_RECORD_TAGS = _ENTITY_TAGS + _TRIPLET_TAGS
# Field name -> accepted spellings; small models drift between them.
_ENTITY_FIELDS: dict[str, tuple[str, ...]] = {
    "name": ("name", "entity_name"),
    "type": ("type", "entity_type"),
    "description": ("description", "desc", "entity_description"),
}
_TRIPLET_FIELDS: dict[str, tuple[str, ...]] = {
    "subject": ("subject", "source", "head"),
    "predicate": ("predicate", "relation", "relationship"),
    "object": ("object", "target", "tail"),
    "description": ("description", "desc", "relationship_description"),
    "strength": ("strength", "weight", "relationship_strength"),
}

_FENCE = re.compile(r"^[ \t]*```[\w-]*[ \t]*$", re.MULTILINE)
_DONE = re.compile(r"<\s*done\s*/?\s*>", re.IGNORECASE)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_SPACES = re.compile(r"\s+")
_QUOTE_PAIRS = {('"', '"'), ("'", "'"), ("`", "`"), ("“", "”"), ("‘", "’"), ("«", "»"), ("„", "“")}


def _record_pattern(tag: str) -> re.Pattern[str]:
    """A whole record whose body opens no other record (so an unclosed one cannot swallow
    the next)."""
    others = "|".join(_RECORD_TAGS)
    return re.compile(
        rf"<\s*{tag}(?:\s[^>/]*)?>((?:(?!<\s*(?:{others})(?:\s[^>/]*)?>).)*?)<\s*/\s*{tag}\s*>",
        re.IGNORECASE | re.DOTALL,
    )


def _opening_pattern(tag: str) -> re.Pattern[str]:
    return re.compile(rf"<\s*{tag}(?:\s[^>/]*)?>", re.IGNORECASE)


_RECORDS = {tag: _record_pattern(tag) for tag in _RECORD_TAGS}
_OPENINGS = {tag: _opening_pattern(tag) for tag in _RECORD_TAGS}


@dataclass(frozen=True)
class ExtractedEntity:
    """One entity record: name, type (default "unknown") and description."""

    name: str
    type: str
    description: str


@dataclass(frozen=True)
class ExtractedTriplet:
    """One subject-predicate-object record, with a description and a 1..10 strength."""

    subject: str
    predicate: str
    object: str
    description: str
    strength: int


@dataclass(frozen=True)
class ParsedExtraction:
    """What one LLM reply held, and how many records had to be dropped."""

    entities: list[ExtractedEntity]
    triplets: list[ExtractedTriplet]
    dropped_entities: int
    dropped_triplets: int
    no_more: bool

    @property
    def kept_entities(self) -> int:
        """Entity records that parsed."""
        return len(self.entities)

    @property
    def kept_triplets(self) -> int:
        """Triplet records that parsed."""
        return len(self.triplets)


def _field(body: str, spellings: tuple[str, ...]) -> str | None:
    """The field's text; None when absent; raises ValueError when opened but not closed."""
    for spelling in spellings:
        closed = re.search(
            rf"<\s*{spelling}\s*>(.*?)<\s*/\s*{spelling}\s*>", body, re.IGNORECASE | re.DOTALL
        )
        if closed:
            return html.unescape(closed.group(1)).strip()
        if re.search(rf"<\s*{spelling}\s*/\s*>", body, re.IGNORECASE):
            return ""
        if re.search(rf"<\s*{spelling}\s*>", body, re.IGNORECASE):
            raise ValueError(f"unclosed <{spelling}>")
    return None


def _fields(body: str, spec: dict[str, tuple[str, ...]]) -> dict[str, str | None] | None:
    """Every field of a record body, or None when one of them is unclosed."""
    try:
        return {name: _field(body, spellings) for name, spellings in spec.items()}
    except ValueError:
        return None


def _name(value: str | None) -> str:
    name = _SPACES.sub(" ", value or "").strip()
    # Models often quote titles ("Scrooge and Marley"); the quotes are not part of the name.
    while len(name) > 1 and (name[0], name[-1]) in _QUOTE_PAIRS:
        name = name[1:-1].strip()
    return name


def _strength(value: str | None) -> int:
    match = _NUMBER.search(value or "")
    if match is None:
        return DEFAULT_STRENGTH
    return max(MIN_STRENGTH, min(MAX_STRENGTH, round(float(match.group()))))


def _entity(body: str) -> ExtractedEntity | None:
    values = _fields(body, _ENTITY_FIELDS)
    if values is None or not _name(values["name"]):
        return None
    return ExtractedEntity(
        name=_name(values["name"]),
        type=_name(values["type"]).lower() or DEFAULT_ENTITY_TYPE,
        description=(values["description"] or "").strip(),
    )


def _triplet(body: str) -> ExtractedTriplet | None:
    values = _fields(body, _TRIPLET_FIELDS)
    if values is None:
        return None
    subject, predicate, obj = (_name(values[key]) for key in ("subject", "predicate", "object"))
    if not (subject and predicate and obj):
        return None
    return ExtractedTriplet(
        subject=subject,
        predicate=predicate,
        object=obj,
        description=(values["description"] or "").strip(),
        strength=_strength(values["strength"]),
    )


def _records(text: str, tags: tuple[str, ...]) -> tuple[list[tuple[int, str]], int]:
    """(position, body) of every closed record with one of `tags`, and how many were opened."""
    found: list[tuple[int, str]] = []
    opened = 0
    for tag in tags:
        found.extend((match.start(), match.group(1)) for match in _RECORDS[tag].finditer(text))
        opened += len(_OPENINGS[tag].findall(text))
    return sorted(found), opened


def parse_extraction(text: str) -> ParsedExtraction:
    """Entities and triplets in an LLM reply; malformed or unclosed records are counted as
    dropped. `no_more` is set when the reply is empty or says <done/> (gleaning is over)."""
    cleaned = _FENCE.sub("", text or "")
    entity_bodies, entity_openings = _records(cleaned, _ENTITY_TAGS)
    triplet_bodies, triplet_openings = _records(cleaned, _TRIPLET_TAGS)
    entities = [e for _, body in entity_bodies if (e := _entity(body)) is not None]
    triplets = [t for _, body in triplet_bodies if (t := _triplet(body)) is not None]
    return ParsedExtraction(
        entities=entities,
        triplets=triplets,
        dropped_entities=max(0, entity_openings - len(entities)),
        dropped_triplets=max(0, triplet_openings - len(triplets)),
        no_more=not cleaned.strip() or _DONE.search(cleaned) is not None,
    )
