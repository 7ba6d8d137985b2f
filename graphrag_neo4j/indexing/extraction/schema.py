"""Schema-guided extraction: every method's types and relations mapped onto the allowed ones.

A type or predicate outside the schema maps to the allowed one spelled most alike (a typo, a
plural), else to the one closest in meaning that `schema_meanings` found for it, else `other`.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from graphrag_neo4j.indexing.records import ChunkExtraction, normalize_type
from graphrag_neo4j.settings import ExtractionSchemaSettings

OTHER = "other"
SIMILARITY = 0.8  # difflib ratio below which no allowed name is the closest (typos, plurals)


@dataclass(frozen=True)
class ExtractionSchema:
    """The allowed entity types (with descriptions), relation types and patterns."""

    entity_types: dict[str, str]
    relation_types: tuple[str, ...] = ()
    patterns: frozenset[tuple[str, str, str]] = frozenset()
    closest: bool = True
    # type (predicate) -> the allowed one closest in meaning, or `other`: for those no allowed
    # name is spelled like
    type_meanings: Mapping[str, str] = field(default_factory=dict)
    predicate_meanings: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_settings(cls, settings: ExtractionSchemaSettings) -> ExtractionSchema | None:
        """The schema the settings declare, or None when they declare no entity types."""
        if not settings.entity_types:
            return None
        return cls(
            {normalize_type(name): text for name, text in settings.entity_types.items()},
            tuple(dict.fromkeys(p.strip().lower() for p in settings.relation_types)),
            frozenset((normalize_type(s), r.strip().lower(), normalize_type(t))
                      for s, r, t in settings.patterns),
            settings.outside == "closest",
        )

    def type_list(self) -> str:
        """The entity types for the prompt: `person (a human being), place (...)`."""
        return ", ".join(f"{name} ({text})" if text else name
                         for name, text in self.entity_types.items())

    def relation_rule(self) -> str:
        """The prompt's rule for predicates: the allowed relation types and patterns."""
        if not self.relation_types:
            return ""
        rule = f"Use exactly one of these predicates: {', '.join(self.relation_types)}."
        if self.patterns:
            allowed = "; ".join(f"{s} {r} {t}" for s, r, t in sorted(self.patterns))
            rule += f" Allowed (subject type, predicate, object type): {allowed}."
        return rule

    def map_type(self, entity_type: str) -> tuple[str, str]:
        """The allowed type for `entity_type`, and `kept`, `mapped` or `other`."""
        return _mapped(normalize_type(entity_type), list(self.entity_types), self.closest,
                       self.type_meanings)

    def map_predicate(self, predicate: str) -> tuple[str, str]:
        """The allowed relation for `predicate` (any, without relation types), and its fate."""
        if not self.relation_types:
            return predicate, "kept"
        return _mapped(predicate.strip().lower(), list(self.relation_types), self.closest,
                       self.predicate_meanings)

    def unspelled(self, extractions: Iterable[ChunkExtraction]) -> tuple[set[str], set[str]]:
        """The types and predicates of `extractions` that no allowed name is spelled like and
        that have no meaning looked up yet: what `schema_meanings` is asked about."""
        if not self.closest:
            return set(), set()
        types = {normalize_type(m.type) for e in extractions for m in e.entities}
        predicates = ({r.predicate.strip().lower() for e in extractions for r in e.relations}
                      if self.relation_types else set())
        return (_unknown(types, list(self.entity_types), self.type_meanings),
                _unknown(predicates, list(self.relation_types), self.predicate_meanings))

    def with_meanings(self, types: Mapping[str, str],
                      predicates: Mapping[str, str]) -> ExtractionSchema:
        """The schema with more types and predicates mapped by meaning."""
        return replace(self, type_meanings={**self.type_meanings, **types},
                       predicate_meanings={**self.predicate_meanings, **predicates})


def _unknown(values: set[str], allowed: list[str], meanings: Mapping[str, str]) -> set[str]:
    return {v for v in values
            if v not in allowed and v not in meanings and not _spelled_like(v, allowed)}


def _mapped(value: str, allowed: list[str], closest: bool,
            meanings: Mapping[str, str]) -> tuple[str, str]:
    if value in allowed:
        return value, "kept"
    if closest:
        match = _spelled_like(value, allowed) or meanings.get(value)
        if match in allowed:
            return match, "mapped"
    return OTHER, "other"


def _spelled_like(value: str, allowed: list[str]) -> str | None:
    match = difflib.get_close_matches(value, allowed, n=1, cutoff=SIMILARITY)
    return match[0] if match else None


@dataclass
class SchemaCounts:
    """How many mentions the schema kept, mapped to the closest allowed name, or made `other`."""

    types: Counter[str] = field(default_factory=Counter)
    relations: Counter[str] = field(default_factory=Counter)
    outside_patterns: int = 0


def apply_schema(
    extraction: ChunkExtraction, schema: ExtractionSchema, counts: SchemaCounts
) -> ChunkExtraction:
    """The extraction with its types and predicates mapped onto the schema, counted."""
    entities = []
    types: dict[str, str] = {}
    for mention in extraction.entities:
        entity_type, fate = schema.map_type(mention.type)
        counts.types[fate] += 1
        types[mention.name] = entity_type
        entities.append(replace(mention, type=entity_type))
    relations = []
    for relation in extraction.relations:
        predicate, fate = schema.map_predicate(relation.predicate)
        counts.relations[fate] += 1
        pattern = (types.get(relation.subject, OTHER), predicate, types.get(relation.object, OTHER))
        if schema.patterns and pattern not in schema.patterns:
            counts.outside_patterns += 1
        relations.append(replace(relation, predicate=predicate))
    return replace(extraction, entities=entities, relations=relations)
