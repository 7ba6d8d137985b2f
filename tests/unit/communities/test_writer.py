"""Rows of the hierarchy write: parents by id, members sorted, batches bounded by link count."""

from __future__ import annotations

from graphrag_neo4j.communities.ids import assign_ids
from graphrag_neo4j.communities.leiden import Cluster, Hierarchy
from graphrag_neo4j.communities.writer import MEMBERS_PER_BATCH, _member_batches, structure_rows


def test_rows_carry_parent_ids_and_sorted_members() -> None:
    hierarchy = Hierarchy({0: Cluster(0, 0, None, frozenset({"b", "a"})),
                           1: Cluster(1, 1, 0, frozenset({"a"}))})
    assignment = assign_ids(hierarchy, [])
    top, child = structure_rows(hierarchy, assignment)
    assert top["member_ids"] == ["a", "b"] and top["parent_id"] is None and top["size"] == 2
    assert child["parent_id"] == top["id"] and child["level"] == 1


def test_batches_hold_about_a_fixed_number_of_links() -> None:
    rows = [{"id": str(i), "member_ids": ["x"] * 3000} for i in range(5)]
    rows.append({"id": "huge", "member_ids": ["y"] * (MEMBERS_PER_BATCH * 2)})
    batches = list(_member_batches(rows))
    assert [len(b) for b in batches] == [1, 1, 1, 1, 1, 1]
    assert [r["id"] for b in batches for r in b] == [r["id"] for r in rows]
    small = [{"id": str(i), "member_ids": ["x"]} for i in range(10)]
    assert list(_member_batches(small)) == [small]
