"""Stable community ids: Jaccard matching one-to-one per level, fresh ids otherwise."""

from __future__ import annotations

from graphrag_neo4j.communities.ids import StoredCommunity, assign_ids, fresh_id, jaccard
from graphrag_neo4j.communities.leiden import Cluster, Hierarchy


def hierarchy(*clusters: tuple[int, int, int | None, set[str]]) -> Hierarchy:
    result = Hierarchy()
    for key, level, parent, members in clusters:
        result.clusters[key] = Cluster(key, level, parent, frozenset(members))
    return result


def stored(community_id: str, level: int, members: set[str]) -> StoredCommunity:
    return StoredCommunity(community_id, level, frozenset(members))


def test_jaccard() -> None:
    assert jaccard(frozenset("abc"), frozenset("abd")) == 0.5
    assert jaccard(frozenset(), frozenset()) == 0.0


def test_first_run_ids_depend_only_on_level_and_members() -> None:
    new = hierarchy((0, 0, None, {"a", "b"}), (1, 1, 0, {"a"}), (2, 1, 0, {"b"}))
    first, second = assign_ids(new, []), assign_ids(new, [])
    assert first.ids == second.ids and len(set(first.ids.values())) == 3
    assert first.fresh == set(first.ids.values()) and not first.kept and not first.deleted


def test_a_barely_changed_community_keeps_its_id_and_the_rest_is_deleted() -> None:
    old = [stored("old-1", 0, {"a", "b", "c", "d"}), stored("old-2", 0, {"x", "y"}),
           stored("old-3", 1, {"a", "b"})]
    new = hierarchy((0, 0, None, {"a", "b", "c", "d", "e"}), (1, 0, None, {"x", "q", "r"}),
                    (2, 1, 0, {"a", "b"}))
    result = assign_ids(new, old)
    assert result.ids[0] == "old-1"  # 4/5 shared
    assert result.ids[2] == "old-3"  # same level only
    assert result.ids[1] not in {"old-1", "old-2", "old-3"}  # 1/4 shared: too different
    assert result.deleted == ["old-2"]


def test_matching_is_one_to_one_by_best_overlap() -> None:
    old = [stored("old", 0, {"a", "b", "c", "d"})]
    new = hierarchy((0, 0, None, {"a", "b"}), (1, 0, None, {"c", "d", "a2"}),
                    (2, 0, None, {"a", "b", "c", "d", "e"}))
    result = assign_ids(new, old)
    assert result.ids[2] == "old"
    assert result.kept == {"old"} and len(result.fresh) == 2


def test_a_fresh_id_never_takes_a_kept_one() -> None:
    taken = {fresh_id(0, ["a", "b"], set())}
    assert fresh_id(0, ["b", "a"], taken) not in taken
    assert fresh_id(0, ["b", "a"], taken) == fresh_id(0, ["a", "b"], taken)
