"""Same-name disambiguation: group mentions into entities and find near-duplicate candidates."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from graphrag_neo4j.database.content_ids import content_id
from graphrag_neo4j.indexing.records import EntityMention, entity_id, normalize_name
from graphrag_neo4j.indexing.vectors import unit_rows

UNKNOWN = "unknown"
_WORD = re.compile(r"\w+", flags=re.UNICODE)


@dataclass
class ProtoEntity:
    """One entity as resolution sees it: maybe already in the graph, maybe new in this run."""

    id: str
    name: str
    type: str
    name_key: str
    existing: bool = False
    descriptions: list[str] = field(default_factory=list)
    surface_names: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True)
class ExistingEntity:
    """An entity already stored in Neo4j."""

    id: str
    name: str
    type: str
    name_key: str
    description: str = ""


@dataclass(frozen=True)
class MergeRecord:
    """One merge, stored on the graph so it can be audited and undone."""

    from_id: str
    from_name: str
    from_type: str
    into_id: str
    reason: str
    decided_by: str

    @property
    def id(self) -> str:
        """A stable id, so recording the same merge twice stores it once."""
        return content_id("merge", self.from_id, self.into_id)


def compatible(type_a: str, type_b: str) -> bool:
    """Types that may describe one entity: equal, or one of them unknown."""
    return type_a == type_b or UNKNOWN in (type_a, type_b)


def mention_key(mention: EntityMention) -> tuple[str, str]:
    """How a mention is looked up in a resolution: normalised name and type."""
    return normalize_name(mention.name), mention.type


@dataclass
class Grouping:
    """Mentions grouped by normalised name and compatible type, plus conflicts to decide."""

    protos: dict[str, ProtoEntity]
    assignment: dict[tuple[str, str], str]
    conflicts: list[list[str]]


def group_mentions(
    mentions: Iterable[EntityMention], existing: Iterable[ExistingEntity]
) -> Grouping:
    """Same normalised name and compatible type -> one entity; existing ids are kept."""
    by_key: dict[str, list[ProtoEntity]] = {}
    stored: dict[str, ProtoEntity] = {}
    for entity in sorted(existing, key=_found_by_own_name_first):
        # One object per stored id, even when it is found under an alias key too.
        proto = stored.setdefault(entity.id, _proto_of_existing(entity))
        if proto not in by_key.setdefault(entity.name_key, []):
            by_key[entity.name_key].append(proto)
    # A total order: the entities made and the ties broken depend on the mentions, not on
    # the order they come in.
    typed_first = sorted(
        mentions, key=lambda m: (m.type == UNKNOWN, m.chunk_id, m.name, m.type, m.description)
    )
    assignment: dict[tuple[str, str], str] = {}
    for mention in typed_first:
        key = normalize_name(mention.name)
        proto = _place(by_key.setdefault(key, []), mention, key)
        proto.surface_names[mention.name] += 1
        if mention.description and mention.description not in proto.descriptions:
            proto.descriptions.append(mention.description)
        assignment[mention_key(mention)] = proto.id
    protos = {p.id: p for group in by_key.values() for p in group}
    conflicts = [[p.id for p in group] for group in by_key.values() if _has_type_conflict(group)]
    for proto in protos.values():
        _choose_display_name(proto)
    return Grouping(protos, assignment, conflicts)


def _found_by_own_name_first(entity: ExistingEntity) -> tuple[bool, str, str]:
    """Stored rows in a fixed order, a name's own entity before one merged under that name."""
    return normalize_name(entity.name) != entity.name_key, entity.id, entity.name_key


def _proto_of_existing(entity: ExistingEntity) -> ProtoEntity:
    descriptions = [entity.description] if entity.description else []
    return ProtoEntity(
        entity.id, entity.name, entity.type, entity.name_key, True, descriptions, Counter()
    )


def _place(group: list[ProtoEntity], mention: EntityMention, key: str) -> ProtoEntity:
    """The entity of `group` this mention belongs to, creating one when none fits."""
    same_type = [p for p in group if p.type == mention.type]
    fitting = same_type or [p for p in group if compatible(p.type, mention.type)]
    if fitting:
        chosen = max(fitting, key=lambda p: (p.existing, sum(p.surface_names.values())))
        if chosen.type == UNKNOWN and mention.type != UNKNOWN:
            chosen.type = mention.type  # a typed mention tells what an untyped entity is
        return chosen
    proto = ProtoEntity(entity_id(mention.name, mention.type), mention.name, mention.type, key)
    group.append(proto)
    return proto


def _choose_display_name(proto: ProtoEntity) -> None:
    """New entities show their most frequent surface form, preferring capitalised ones."""
    if proto.existing or not proto.surface_names:
        return
    proto.name = max(
        proto.surface_names.items(),
        key=lambda item: (item[1], sum(ch.isupper() for ch in item[0]), item[0]),
    )[0]


def _has_type_conflict(group: Sequence[ProtoEntity]) -> bool:
    known = {p.type for p in group if p.type != UNKNOWN}
    return len(known) > 1 and any(not p.existing for p in group)


def _words(name_key: str) -> set[str]:
    return set(_WORD.findall(name_key))


def names_overlap(key_a: str, key_b: str) -> bool:
    """One name's words all appear in the other, e.g. "euler" in "leonhard euler"."""
    words_a, words_b = _words(key_a), _words(key_b)
    if not words_a or not words_b or words_a == words_b:
        return False
    return min(words_a, words_b, key=len) <= (words_a & words_b)


def _candidate_pairs(
    protos: Sequence[ProtoEntity], embeddings: Mapping[str, Sequence[float]], threshold: float
) -> set[tuple[int, int]]:
    """Index pairs that share a word or whose name embeddings are close."""
    pairs: set[tuple[int, int]] = set()
    by_word: dict[str, list[int]] = {}
    for index, proto in enumerate(protos):
        for word in _words(proto.name_key):
            by_word.setdefault(word, []).append(index)
    for members in by_word.values():
        if len(members) <= 50:  # a word shared by many names ("the", "river") says nothing
            pairs.update((a, b) for i, a in enumerate(members) for b in members[i + 1 :])
    matrix = unit_rows([embeddings[p.id] for p in protos])
    rows, cols = np.nonzero(np.triu(matrix @ matrix.T, k=1) >= threshold)
    pairs.update(zip(rows.tolist(), cols.tolist(), strict=True))
    return pairs


def _is_candidate(a: ProtoEntity, b: ProtoEntity, close: bool) -> bool:
    if (a.existing and b.existing) or not compatible(a.type, b.type):
        return False
    if a.name_key == b.name_key:
        return False  # same name, different types: a type conflict, decided elsewhere
    return close or names_overlap(a.name_key, b.name_key)


def near_duplicate_groups(
    protos: Sequence[ProtoEntity],
    embeddings: Mapping[str, Sequence[float]],
    threshold: float,
    max_group: int = 12,
) -> list[list[str]]:
    """Clusters of compatible entities whose names overlap or embed close; one new at least."""
    if len(protos) < 2:
        return []
    parent = list(range(len(protos)))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    vectors = {p.id: np.asarray(embeddings[p.id], dtype=np.float32) for p in protos}
    for a, b in sorted(_candidate_pairs(protos, embeddings, threshold)):
        first, second = protos[a], protos[b]
        close = float(vectors[first.id] @ vectors[second.id]) >= threshold * float(
            np.linalg.norm(vectors[first.id]) * np.linalg.norm(vectors[second.id])
        )
        if _is_candidate(first, second, close):
            parent[root(a)] = root(b)
    clusters: dict[int, list[str]] = {}
    for index, proto in enumerate(protos):
        clusters.setdefault(root(index), []).append(proto.id)
    return [ids[:max_group] for ids in clusters.values() if len(ids) > 1]
