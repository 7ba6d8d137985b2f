"""Microsoft GraphRAG tables of any version shape into our graph rows; bad folders fail clearly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from graphrag_neo4j.indexing.interop.msgraphrag_rows import graph_rows
from graphrag_neo4j.indexing.interop.msgraphrag_tables import findings_json, read_output
from graphrag_neo4j.runtime.errors import InputError


def _write(folder: Path, name: str, rows: list[dict[str, Any]]) -> None:
    pq.write_table(pa.Table.from_pylist(rows), folder / f"{name}.parquet")


@pytest.fixture
def v0_output(tmp_path: Path) -> Path:
    """A v0.x-style index: create_final_* files, `name`, `raw_content`, `chunk`, no parent."""
    art = tmp_path / "output" / "20240801-101500" / "artifacts"
    art.mkdir(parents=True)
    _write(art, "create_final_documents", [
        {"id": "d1", "title": "a.txt", "raw_content": "Euler met Bernoulli.",
         "text_unit_ids": ["t1"]}
    ])
    _write(art, "create_final_text_units", [
        {"id": "t1", "chunk": "Euler met Bernoulli.", "n_tokens": 4, "document_ids": ["d1"]}
    ])
    _write(art, "create_final_entities", [
        {"id": "e1", "name": "EULER", "type": "PERSON", "description": "A mathematician",
         "text_unit_ids": ["t1"]},
        {"id": "e2", "name": "BERNOULLI", "type": "PERSON", "description": "His teacher",
         "text_unit_ids": ["t1"]},
    ])
    _write(art, "create_final_relationships", [
        {"id": "r1", "source": "EULER", "target": "BERNOULLI", "description": "studied under",
         "weight": 2.0, "text_unit_ids": ["t1"]},
        {"id": "r2", "source": "EULER", "target": "BASEL", "description": "lived in",
         "weight": 1.0, "text_unit_ids": ["t1"]},
    ])
    _write(art, "create_final_communities", [
        {"id": "0", "level": 0, "title": "Community 0", "relationship_ids": ["r1", "r2"]},
        {"id": "1", "level": 1, "title": "Community 1", "relationship_ids": ["r1"]},
    ])
    _write(art, "create_final_community_reports", [
        {"community": "1", "title": "Teachers", "summary": "Euler and Bernoulli.",
         "full_content": "# Teachers", "rank": 7.5, "rank_explanation": "Central.",
         "findings": [{"summary": "S", "explanation": "E"}]},
    ])
    return tmp_path


def test_v0_tables_become_our_rows(v0_output: Path) -> None:
    output = read_output(v0_output)
    assert output.folder.name == "artifacts" and "covariates" not in output.tables
    rows = graph_rows(output)
    assert rows.chunks == [{"id": "t1", "document_id": "d1", "text": "Euler met Bernoulli.",
                            "n_tokens": 4, "chunk_index": 0}]
    assert [(e["name"], e["type"], e["frequency"], e["degree"]) for e in rows.entities] == [
        ("EULER", "person", 1, 2), ("BERNOULLI", "person", 1, 1)]
    assert [p["name"] for p in rows.placeholders] == ["BASEL"]
    assert len(rows.relations) == 2 and rows.relations[0]["predicate"] == "related to"
    assert len(rows.mentions) == 2 and len(rows.relation_mentions) == 2


def test_v0_communities_get_members_parents_and_reports(v0_output: Path) -> None:
    rows = graph_rows(read_output(v0_output))
    top, child = rows.communities
    assert (top["id"], child["id"]) == ("msgraphrag-community-0", "msgraphrag-community-1")
    assert child["parent_id"] == top["id"] and top["parent_id"] is None
    assert len(top["member_ids"]) == 3 and child["member_ids"] == ["e1", "e2"]
    (report,) = rows.reports
    assert report["id"] == child["id"] and report["rating_explanation"] == "Central."
    assert json.loads(report["findings"]) == [{"summary": "S", "explanation": "E"}]


def test_findings_accept_json_text_and_plain_text() -> None:
    assert json.loads(findings_json('[{"summary": "a", "explanation": "b"}]'))[0]["summary"] == "a"
    assert json.loads(findings_json("not json")) == [{"summary": "not json", "explanation": ""}]


def test_missing_folder_and_missing_table_are_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is not a folder"):
        read_output(tmp_path / "nowhere")
    _write(tmp_path, "entities", [{"id": "e1", "title": "A"}])
    with pytest.raises(InputError, match=r"has no documents\.parquet"):
        read_output(tmp_path)
