"""Stable community ids: re-clustered communities keep the id of the old one they mostly equal."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from graphrag_neo4j.communities.leiden import Cluster, Hierarchy
from graphrag_neo4j.database.content_ids import content_id

# Two communities are "the same" when they share at least half of their joint membership.
MIN_JACCARD = 0.5


@dataclass(frozen=True)
class StoredCommunity:
    """A community as the graph holds it before re-clustering."""

    id: str
    level: int
    members: frozenset[str]
    parent: str | None = None


@dataclass
class IdAssignment:
    """The id of every new cluster, and what happened to the old communities."""

    ids: dict[int, str] = field(default_factory=dict)
    kept: set[str] = field(default_factory=set)
    fresh: set[str] = field(default_factory=set)
    deleted: list[str] = field(default_factory=list)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Shared members over joint members (0 for two empty sets)."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def fresh_id(level: int, members: Iterable[str], taken: set[str]) -> str:
    """An id from the level and the sorted members, salted in the rare case it is taken."""
    parts = [str(level), *sorted(members)]
    candidate = content_id("community", *parts)
    salt = 0
    while candidate in taken:  # a kept id may once have been made from these same members
        salt += 1
        candidate = content_id("community", *parts, f"#{salt}")
    return candidate


def _candidate_pairs(
    new: list[Cluster], old: list[StoredCommunity]
) -> list[tuple[float, int, str]]:
    """(jaccard, new key, old id) for every pair of one level overlapping by MIN_JACCARD."""
    # Each entity sits in one community per level, so overlaps come from one pass over members.
    old_of: dict[str, str] = {e: o.id for o in old for e in o.members}
    old_by_id = {o.id: o for o in old}
    pairs = []
    for cluster in new:
        shared = Counter(old_of[e] for e in cluster.members if e in old_of)
        for old_id, count in shared.items():
            size = len(cluster.members) + len(old_by_id[old_id].members) - count
            score = count / size
            if score >= MIN_JACCARD:
                pairs.append((score, cluster.key, old_id))
    return pairs


def assign_ids(hierarchy: Hierarchy, stored: list[StoredCommunity]) -> IdAssignment:
    """Match each level's clusters one-to-one to old communities by best Jaccard overlap.

    A matched cluster keeps the old id (so its report can be reused); the others get fresh
    ids; old communities left unmatched are to be deleted.
    """
    result = IdAssignment()
    old_by_level: dict[int, list[StoredCommunity]] = defaultdict(list)
    for community in stored:
        old_by_level[community.level].append(community)
    for level in hierarchy.levels:
        new = hierarchy.at_level(level)
        pairs = _candidate_pairs(new, old_by_level.get(level, []))
        # Best overlap first; ties broken by key and id so the outcome never depends on order.
        for _score, key, old_id in sorted(pairs, key=lambda p: (-p[0], p[1], p[2])):
            if key not in result.ids and old_id not in result.kept:
                result.ids[key] = old_id
                result.kept.add(old_id)
    taken = set(result.kept)
    for key, cluster in sorted(hierarchy.clusters.items()):
        if key not in result.ids:
            new_id = fresh_id(cluster.level, cluster.members, taken)
            result.ids[key] = new_id
            result.fresh.add(new_id)
            taken.add(new_id)
    result.deleted = sorted(c.id for c in stored if c.id not in result.kept)
    return result
