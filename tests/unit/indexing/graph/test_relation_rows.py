"""Relation mentions are grouped into one write row per relation, in reading order."""

from __future__ import annotations

from typing import Any

from graphrag_neo4j.indexing.graph.writer import group_relation_mentions


def _mention(rel: str, chunk: str | None, description: str, strength: float) -> dict[str, Any]:
    return {"id": rel, "source_id": "s", "target_id": "t", "predicate": "knows",
            "chunk_id": chunk, "description": description, "strength": strength}


def test_mentions_of_one_relation_become_one_row() -> None:
    rows = group_relation_mentions([
        _mention("r1", "c1", "first", 9), _mention("r2", "c1", "other", 3),
        _mention("r1", "c2", "second", 7), _mention("r1", "c1", "again", 1),
    ])
    assert [row["id"] for row in rows] == ["r1", "r2"]
    assert rows[0]["chunk_ids"] == ["c1", "c2"]
    assert rows[0]["descriptions"] == ["first", "second"]
    assert rows[0]["strengths"] == [9, 7]


def test_a_mention_without_chunk_keeps_the_relation_but_adds_no_provenance() -> None:
    (row,) = group_relation_mentions([_mention("r1", None, "imported", 5)])
    assert row["chunk_ids"] == [] and row["descriptions"] == [] and row["strengths"] == []
