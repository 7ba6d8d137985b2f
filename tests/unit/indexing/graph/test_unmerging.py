"""Undoing a merge moves back exactly the mentions that used the merged-away name."""

from __future__ import annotations

from typing import Any

from graphrag_neo4j.indexing.graph.unmerging import plan_unmerge
from graphrag_neo4j.indexing.records import relation_id
from graphrag_neo4j.indexing.resolution.decisions import Resolution, apply_merge
from graphrag_neo4j.indexing.resolution.grouping import ProtoEntity


def _footprint(relations: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": "m1", "from_id": "E", "from_name": "Euler", "from_type": "person",
        "into_id": "L", "into_name": "Leonhard Euler", "decided_by": "llm", "undone": False,
        "mentions": [
            {"chunk_id": "c1", "surface_names": ["Leonhard Euler", "Euler"],
             "description": "both", "surface_type": "person"},
            {"chunk_id": "c2", "surface_names": ["euler"], "description": "short",
             "surface_type": None},
            {"chunk_id": "c3", "surface_names": ["Leonhard Euler"], "description": "long",
             "surface_type": "person"},
        ],
        "relations": relations,
    }


def _relation(rid: str, source: str, target: str, chunks: list[str], subjects: list[str] | None,
              objects: list[str] | None) -> dict[str, Any]:
    return {"id": rid, "source_id": source, "target_id": target, "predicate": "p",
            "chunk_ids": chunks, "descriptions": [f"d{c}" for c in chunks],
            "strengths": [5.0 for _ in chunks], "subjects": subjects, "objects": objects}


def test_chunks_that_used_only_the_short_name_move_and_shared_ones_split() -> None:
    plan = plan_unmerge(_footprint([]))
    assert plan.dropped_mentions == [{"chunk_id": "c2", "entity_id": "L"}]
    assert plan.renamed_mentions == [
        {"chunk_id": "c1", "entity_id": "L", "surface_names": ["Leonhard Euler"]}
    ]
    restored = {row["chunk_id"]: row for row in plan.restored_mentions}
    assert sorted(restored) == ["c1", "c2"]
    assert restored["c1"]["surface_names"] == ["Euler"]
    assert restored["c2"]["surface_names"] == ["euler"]
    assert restored["c2"]["surface_type"] == "person"  # the merge record's type fills a gap
    assert {row["entity_id"] for row in plan.restored_mentions} == {"E"}
    assert restored["c1"]["name_key"] == "euler"


def test_relation_mentions_follow_the_name_their_chunk_used() -> None:
    influence = _relation("R1", "J", "L", ["c1", "c3"], ["Johann", "Johann"],
                          ["Euler", "Leonhard Euler"])
    born = _relation("R2", "L", "B", ["c2"], ["euler"], ["Basel"])
    plan = plan_unmerge(_footprint([influence, born]))
    assert plan.detached == {"R1": ["c1"], "R2": ["c2"]}
    moved = {(m["id"], m["chunk_id"]) for m in plan.moved_relation_mentions}
    assert moved == {(relation_id("J", "p", "E"), "c1"), (relation_id("E", "p", "B"), "c2")}
    first = next(m for m in plan.moved_relation_mentions if m["chunk_id"] == "c1")
    assert first["description"] == "dc1" and first["object_name"] == "Euler"


def test_in_a_shared_chunk_only_mentions_naming_the_short_form_move() -> None:
    short = _relation("R3", "L", "J", ["c1"], ["Euler"], ["Johann"])
    full = _relation("R4", "J", "L", ["c1"], ["Johann"], ["Leonhard Euler"])
    plan = plan_unmerge(_footprint([short, full]))
    assert plan.detached == {"R3": ["c1"]}
    assert [(m["source_id"], m["target_id"]) for m in plan.moved_relation_mentions] == [
        ("E", "J")
    ]


def test_relations_written_before_surface_names_were_kept_stay_put() -> None:
    plan = plan_unmerge(_footprint([_relation("R5", "L", "B", ["c2"], None, None)]))
    assert plan.detached == {} and plan.moved_relation_mentions == []


def test_steps_run_in_one_transaction_and_mark_the_merge() -> None:
    footprint = _footprint([])
    steps = dict(plan_unmerge(footprint).steps(footprint))
    names = list(steps)
    assert names[-1] == "indexing/merges/mark_merge_undone"
    assert steps["indexing/merges/mark_merge_undone"] == {"id": "m1"}
    assert names[0] == "indexing/entities/merge_entity_mentions"  # the restored entity exists first
    assert steps["indexing/merges/repoint_spelling_merges"]["from_key"] == "euler"


def test_a_vetoed_merge_is_not_applied_again() -> None:
    short = ProtoEntity("E", "Euler", "person", "euler")
    full = ProtoEntity("L", "Leonhard Euler", "person", "leonhard euler", existing=True)
    assignment = {("euler", "person"): "E", ("leonhard euler", "person"): "L"}
    vetoed = Resolution({"E": short, "L": full}, dict(assignment), vetoed={("euler", "L")})
    apply_merge(vetoed, "E", "L", "short form")
    assert vetoed.merges == [] and vetoed.assignment == assignment
    # Restored "Euler" stored, "Leonhard Euler" new: the fold would go the other way round.
    stored_short = ProtoEntity("E", "Euler", "person", "euler", existing=True)
    new_full = ProtoEntity("L", "Leonhard Euler", "person", "leonhard euler")
    reversed_veto = Resolution({"E": stored_short, "L": new_full}, dict(assignment),
                               vetoed={("euler", "L")})
    apply_merge(reversed_veto, "E", "L", "short form")
    assert reversed_veto.merges == [] and set(reversed_veto.protos) == {"E", "L"}
    allowed = Resolution({"E": short, "L": full}, dict(assignment))
    apply_merge(allowed, "E", "L", "short form")
    assert allowed.assignment[("euler", "person")] == "L"
    assert [m.from_name for m in allowed.merges] == ["Euler"]

