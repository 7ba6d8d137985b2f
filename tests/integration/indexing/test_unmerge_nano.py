"""Undoing the nano graph's Euler merge on the real server: restored, audited, never redone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import Settings
from tests.integration.indexing.test_index_nano import _entities, _rag
from tests.nano_fakes import load_nano, nano_fake_llm, write_nano_passages

pytestmark = pytest.mark.integration


INFLUENCE = ("Johann Bernoulli's influence", "was profound on")
# A fifth document naming Euler in lower case: a spelling folded with "Euler" by normalisation.
LETTER = "A letter from euler to his teacher survives in Basel."
LETTER_REPLY = (
    "<concept><name>euler</name><type>person</type><description>Wrote a letter to his"
    " teacher.</description></concept>"
)


def _llm_euler_merge(merges: list[dict[str, Any]]) -> dict[str, Any]:
    return next(m for m in merges if (m["from_name"], m["decided_by"]) == ("Euler", "llm"))


def audit_into(audit: dict[str, dict[str, Any]], from_name: str) -> str:
    """Where the merge trail says a spelling was folded."""
    return str(next(m["into_name"] for m in audit.values() if m["from_name"] == from_name))


def _relations(store: Store) -> set[tuple[str, str, str]]:
    rows = store.read("interop/export_relations")
    return {(r["source"], r["predicate"], r["target"]) for r in rows}


@pytest.fixture
def nano_rag(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path
) -> Iterator[tuple[GraphRAG, list[Path]]]:
    """The nano passages indexed with the fake LLM (which merges "Euler" into "Leonhard Euler")."""
    dataset = load_nano(nano_root)
    paths = write_nano_passages(dataset, tmp_path / "docs")
    letter = tmp_path / "docs" / "letter.txt"
    letter.write_text(LETTER, encoding="utf-8")
    with _rag(settings, tmp_path, nano_fake_llm(dataset, [(LETTER, LETTER_REPLY)])) as rag:
        rag.index([*paths, letter])
        yield rag, [*paths, letter]


def test_undoing_the_euler_merge_restores_euler_with_its_own_mentions(
    store: Store, nano_rag: tuple[GraphRAG, list[Path]]
) -> None:
    rag, _ = nano_rag
    merge = _llm_euler_merge(rag.merges())
    assert (*INFLUENCE, "Leonhard Euler") in _relations(store)
    report = rag.unmerge(merge["id"])
    audit = {m["id"]: m for m in rag.merges()}
    assert report.restored_name == "Euler" and report.relation_mentions == 1
    entities = _entities(store)
    assert {"Euler", "Leonhard Euler"} <= set(entities)
    assert entities["Euler"]["frequency"] == 2 and entities["Euler"]["embedded"]
    assert entities["Leonhard Euler"]["frequency"] == 1
    # The lower-case spelling went with the restored entity, also for later look-ups.
    assert audit_into(audit, "euler") == "Euler"
    (found,) = store.read("indexing/entities/find_entities_by_name_key", keys=["euler"])
    assert found["name"] == "Euler"
    relations = _relations(store)
    assert (*INFLUENCE, "Euler") in relations
    assert (*INFLUENCE, "Leonhard Euler") not in relations
    # "leonhard Euler" is a spelling of the full name: its relation stays where it was.
    assert ("Leonhard Euler", "was born in", "Basel") in relations
    assert ("Leonhard Euler", "was a student of", "Johann Bernoulli") in relations
    assert audit[merge["id"]]["undone"] is True
    assert store.read("indexing/deletion/count_orphans")[0] == {"entities": 0, "relations": 0}


def test_an_undone_merge_is_not_made_again_and_other_merges_cannot_be_undone(
    store: Store, nano_rag: tuple[GraphRAG, list[Path]]
) -> None:
    rag, paths = nano_rag
    merges = rag.merges()
    undone = _llm_euler_merge(merges)
    rag.unmerge(undone["id"])
    with pytest.raises(InputError, match="already undone"):
        rag.unmerge(undone["id"])
    spelling = next(m for m in merges if m["decided_by"] == "normalisation")
    with pytest.raises(InputError, match="normalisation"):
        rag.unmerge(spelling["id"])
    with pytest.raises(InputError, match="graphrag-neo4j merges"):
        rag.unmerge("no-such-merge")
    # Deleting passage 3 removes "Leonhard Euler" (the letter keeps "Euler"); indexing it again
    # asks the LLM, which still says "merge" (now the stored "Euler" would absorb the new
    # "Leonhard Euler"), but the veto left by the undo keeps them apart.
    euler_doc = next(d for d in store.read("indexing/documents/list_documents", skip=0, limit=10)
                     if d["source"].endswith("passage_3.txt"))
    rag.delete(euler_doc["id"])
    assert "Leonhard Euler" not in _entities(store)
    rag.index(paths)
    assert {"Euler", "Leonhard Euler"} <= set(_entities(store))
    assert (*INFLUENCE, "Euler") in _relations(store)
