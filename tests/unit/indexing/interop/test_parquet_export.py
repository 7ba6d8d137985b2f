"""Export shaping: unique entity titles, community numbering and nesting, evidence parameters."""

from __future__ import annotations

from typing import Any

from graphrag_neo4j.indexing.interop.parquet_communities import community_numbers, community_tables
from graphrag_neo4j.indexing.interop.parquet_export import unique_titles
from graphrag_neo4j.query.answers.evidence import browser_script, evidence_params
from graphrag_neo4j.query.base import Answer


def _community(cid: str, level: int, parent: str | None, members: list[str]) -> dict[str, Any]:
    return {"id": cid, "level": level, "number": None, "parent_id": parent, "title": None,
            "summary": "S", "full_content": "# R" if level else None, "rank": 5.0,
            "rating_explanation": "", "findings": '[{"summary": "a", "explanation": "b"}]',
            "entity_ids": members}


def test_same_name_entities_get_distinct_titles() -> None:
    titles = unique_titles([
        {"id": "1", "name": "Mercury", "type": "planet"},
        {"id": "2", "name": "Mercury", "type": "element"},
        {"id": "3", "name": "Venus", "type": "planet"},
    ])
    assert titles == {"1": "Mercury (planet)", "2": "Mercury (element)", "3": "Venus"}


def test_communities_are_numbered_nested_and_reported() -> None:
    communities = [_community("a", 0, None, ["x", "y"]), _community("b", 1, "a", ["x", "y"])]
    relations = [{"id": "r", "source_id": "x", "target_id": "y", "chunk_ids": ["t"]}]
    table, reports = community_tables(communities, relations, "2026-01-01")
    assert [(c["community"], c["parent"], c["children"]) for c in table] == [
        (0, -1, [1]), (1, 0, [])]
    assert table[1]["relationship_ids"] == ["r"] and table[1]["text_unit_ids"] == ["t"]
    (report,) = reports
    assert report["community"] == 1 and report["findings"] == [{"summary": "a", "explanation": "b"}]


def test_stored_graphrag_numbers_are_kept_when_distinct() -> None:
    rows = [{"id": "a", "number": 7}, {"id": "b", "number": 3}]
    assert community_numbers(rows) == {"a": 7, "b": 3}
    assert community_numbers([{"id": "a", "number": 1}, {"id": "b", "number": 1}]) == {
        "a": 0, "b": 1}


def test_evidence_script_sets_every_parameter_from_the_answer() -> None:
    answer = Answer(text="", method="hops", sources={
        "Entities": [{"id": "e1"}, {"id": "e1"}], "Relationships": [{"id": "r1"}],
        "Sources": [{"chunk_id": "c1"}], "Reports": [],
    })
    assert evidence_params(answer) == {"entity_ids": ["e1"], "relation_ids": ["r1"],
                                       "chunk_ids": ["c1"], "community_ids": []}
    lines = browser_script(answer).splitlines()
    assert lines[:4] == [':param entity_ids => ["e1"];', ':param relation_ids => ["r1"];',
                         ':param chunk_ids => ["c1"];', ":param community_ids => [];"]
