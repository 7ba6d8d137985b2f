"""Microsoft GraphRAG interop on the real server: import Operation Dulce, query, round-trip."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.query.answers.evidence import EVIDENCE_QUERY, browser_script, evidence_params
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration
_ROW = re.compile(r"^(\d+)\|([^|]*)\|", flags=re.MULTILINE)
DULCE_COUNTS = {
    "documents": 1, "chunks": 5, "entities": 39, "placeholder_entities": 2,
    "relationships": 107, "communities": 10, "reports": 10, "covariates": 41,
}


def _map(prompt: str) -> str:
    """Score every report that mentions the squad."""
    points = [
        {"description": f"{title} [Data: Reports ({ref})]",
         "score": 70 if "Paranormal Military Squad" in title else 0}
        for ref, title in _ROW.findall(prompt)
    ]
    return json.dumps({"points": points})


@pytest.fixture
def dulce(shared_data: Path) -> Path:
    return shared_data / "operation_dulce" / "msgraphrag_output"


@pytest.fixture
def rag(store: Store, settings: Settings, tmp_path: Path) -> Iterator[GraphRAG]:
    llm = FakeChatModel(rules=[
        ("Find what in these reports helps", _map),
        ("Several analysts", "The squad leads Operation Dulce [Data: Reports (1)]."),
        ("-----Question-----", "Alex Mercer leads the squad [Data: Entities (1)]."),
    ])
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    with GraphRAG(tuned, llm=llm, embeddings=FakeEmbeddings()) as engine:
        yield engine


def _counts(rag: GraphRAG) -> dict[str, Any]:
    return dict(rag.store.read("interop/count_import")[0])


def _snapshot(rag: GraphRAG) -> list[Any]:
    return [rag.store.read(name) for name in
            ("interop/export_entities", "interop/export_relations",
             "interop/export_communities", "interop/export_chunks")]


def test_import_writes_every_table_and_twice_changes_nothing(rag: GraphRAG, dulce: Path) -> None:
    report = rag.import_msgraphrag(dulce)
    counts = _counts(rag)
    assert {k: counts[k] for k in DULCE_COUNTS} == DULCE_COUNTS
    assert report.read["entities"] == 39 and report.read["relationships"] == 107
    assert sorted(report.placeholders) == ["CONCRETE HALLWAY", "ELEVATOR"]
    assert counts["parent_links"] == 3 and counts["memberships"] == 49
    before = _snapshot(rag)
    rag.import_msgraphrag(dulce)
    assert _counts(rag) == counts
    assert _snapshot(rag) == before


def test_imported_graph_has_the_shape_our_searches_read(rag: GraphRAG, dulce: Path) -> None:
    rag.import_msgraphrag(dulce)
    reports = rag.store.read("communities/reports/list_community_reports")
    assert all(r["title"] and r["summary"] and r["full_content"] and r["embedded"]
               for r in reports)
    assert {r["level"] for r in reports} == {0, 1}
    findings = json.loads(reports[0]["findings"])
    assert findings and set(findings[0]) == {"summary", "explanation"}
    assert len([r for r in reports if r["parent_id"]]) == 3


def test_local_and_global_search_work_on_the_import(rag: GraphRAG, dulce: Path) -> None:
    rag.import_msgraphrag(dulce)
    local = rag.query("Who is Alex Mercer and what does he do?", method="local")
    names = [row["name"] for row in local.sources["Entities"]]
    assert "ALEX MERCER" in names
    assert local.sources["Reports"] and local.sources["Sources"]
    assert local.sources["Relationships"]
    assert "Alex Mercer leads the squad" in local.text
    answer = rag.query("What is Operation Dulce about?", method="global", level=1)
    titles = [row["title"] for row in answer.sources["Reports"]]
    assert "Paranormal Military Squad and Operation Dulce" in titles
    assert answer.text.startswith("The squad leads Operation Dulce")


def test_export_then_reimport_round_trips_the_counts(
    rag: GraphRAG, dulce: Path, store: Store, tmp_path: Path
) -> None:
    rag.import_msgraphrag(dulce)
    first = _counts(rag)
    exported = rag.export_parquet(tmp_path / "export")
    assert exported.rows["entities"] == 41 and exported.rows["community_reports"] == 10
    table = pq.read_table(tmp_path / "export" / "communities.parquet").to_pylist()
    assert {c["community"] for c in table} == set(range(10))
    store.run_autocommit("database/delete_all")
    assert _counts(rag)["entities"] == 0
    rag.import_msgraphrag(tmp_path / "export")
    again = _counts(rag)
    # Placeholders of the first import are ordinary rows of the exported entities table.
    assert again["entities"] + again["placeholder_entities"] == 41
    same = {k: v for k, v in first.items() if "entities" not in k}
    assert {k: again[k] for k in same} == same


def _ids_in(value: Any) -> set[str]:
    """Every `id` property anywhere in rows of paths (the driver turns them into lists)."""
    if isinstance(value, dict):
        found = {str(value["id"])} if "id" in value else set()
        return found.union(*(_ids_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_ids_in(v) for v in value))
    return set()


def test_evidence_query_draws_what_the_context_used(rag: GraphRAG, dulce: Path) -> None:
    rag.import_msgraphrag(dulce)
    answer = rag.retrieve("Who is Alex Mercer and what does he do?", "local")
    params = evidence_params(answer)
    assert all(params.values()), params
    paths = rag.store.read(EVIDENCE_QUERY, **params)
    drawn = _ids_in(paths)  # node ids: the driver gives a path's relationships as type names
    for name in ("entity_ids", "chunk_ids", "community_ids"):
        assert set(params[name]) <= drawn, name
    related = [p for p in paths if "RELATED" in p["p"]]
    assert len(related) == len(params["relation_ids"])
    script = browser_script(answer)
    assert script.splitlines()[0].startswith(":param entity_ids => [")
    assert sum(line.startswith(":param ") for line in script.splitlines()) == 4
    assert script.rstrip().endswith("RETURN p")


def test_style_labels_are_added_and_removed(rag: GraphRAG, dulce: Path) -> None:
    rag.import_msgraphrag(dulce)
    assert len(rag.store.read("explore/community_tree")) == 10
    rag.store.write("explore/style_labels")
    (alex,) = rag.store.read("explore/entity_neighbourhood", entity_name="alex mercer")
    assert alex["e"]["name"] == "ALEX MERCER" and alex["chunks"] and alex["relations"]
    assert set(alex["labels"]) == {"__Entity__", "Person", "Degree_hub"}
    rag.store.write("explore/remove_style_labels")
    (alex,) = rag.store.read("explore/entity_neighbourhood", entity_name="ALEX MERCER")
    assert set(alex["labels"]) == {"__Entity__", "Person"}  # the type label stays
