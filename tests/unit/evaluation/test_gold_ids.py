"""Gold passage references matched to the graph's documents, and what a run is told of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from graphrag_neo4j.evaluation.gold_ids import (
    GoldMatch,
    gold_references,
    match_gold,
    match_notes,
    questions_in_graph,
    questions_with_gold,
)
from graphrag_neo4j.evaluation.retrieval import EvalQuestion
from graphrag_neo4j.runtime.errors import InputError


class LookupStore:
    """A store answering the gold look-up from a table of documents (id -> source)."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources
        self.reads: list[tuple[str, dict[str, Any]]] = []

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        self.reads.append((name, params))
        rows = []
        for ref in params["refs"]:
            by_id = ref if ref in self.sources else None
            by_source = [] if by_id else [
                doc for doc, source in self.sources.items()
                if source == ref or source.endswith(("/" + ref, "#" + ref))]
            rows.append({"ref": ref, "by_id": by_id, "by_source": by_source})
        return rows


DOCUMENTS = {"d-gc": "/m/pages/git-gc.html", "d-add": "/m/pages/git-add.html",
             "d-a": "/m/a/index.html", "d-b": "/m/b/index.html", "p-17": "c.jsonl#p-17"}


def _items() -> list[EvalQuestion]:
    return [EvalQuestion("q1", "gc?", ["git-gc.html", "p-17"]),
            EvalQuestion("q2", "index?", ["index.html"]),
            EvalQuestion("q3", "add?", ["pages/git-add.html", "nowhere.html"]),
            EvalQuestion("q4", "none?", ["nowhere.html"])]


def test_references_match_by_id_first_then_by_a_unique_source() -> None:
    store = LookupStore(DOCUMENTS)
    match = match_gold(store, gold_references(_items()))  # type: ignore[arg-type]
    assert store.reads[0][0] == "evaluation/gold_documents"
    assert match.document_of == {"git-gc.html": "d-gc", "p-17": "p-17",
                                 "pages/git-add.html": "d-add"}
    assert match.by_source == 2
    assert match.unmatched == ["nowhere.html"]
    assert match.ambiguous == {"index.html": 2}


def test_questions_without_a_gold_document_are_left_out_and_the_rest_get_ids() -> None:
    match = match_gold(LookupStore(DOCUMENTS), gold_references(_items()))  # type: ignore[arg-type]
    kept, refused = questions_with_gold(_items(), match)
    assert [(q.id, q.gold) for q in kept] == [("q1", ["d-gc", "p-17"]),
                                              ("q3", ["d-add", "nowhere.html"])]
    assert refused == ["q2", "q4"]
    notes = match_notes(match, refused)
    assert len(notes) == 4
    assert "'nowhere.html'" in notes[1] and "'index.html'" in notes[2]
    assert "'q2', 'q4'" in notes[3]


def test_ids_that_are_document_ids_need_no_note() -> None:
    match = GoldMatch({"p-17": "p-17"})
    assert match_notes(match, []) == []
    assert match_gold(LookupStore(DOCUMENTS), []) == GoldMatch({})  # type: ignore[arg-type]


def test_a_run_with_no_gold_document_in_the_graph_is_refused_in_one_sentence(
    tmp_path: Path,
) -> None:
    items = [EvalQuestion("q4", "none?", ["nowhere.html", "gone.html"])]
    with pytest.raises(InputError) as refused:
        questions_in_graph(LookupStore(DOCUMENTS), items, tmp_path / "q.json",  # type: ignore[arg-type]
                           Console(file=None, quiet=True))
    message = str(refused.value)
    assert "q.json" in message and "'nowhere.html'" in message
    assert "graphrag-neo4j documents" in message and message.count(".") >= 1
    with pytest.raises(InputError, match=r"graph: give"):  # no question: nothing to show
        questions_in_graph(LookupStore(DOCUMENTS), [], tmp_path / "q.json",  # type: ignore[arg-type]
                           Console(file=None, quiet=True))


def test_answers_keep_every_question_with_what_could_be_matched(tmp_path: Path) -> None:
    kept = questions_in_graph(LookupStore(DOCUMENTS), _items(), tmp_path / "q.json",  # type: ignore[arg-type]
                              Console(file=None, quiet=True), refuse=False)
    assert [q.gold for q in kept] == [["d-gc", "p-17"], ["index.html"],
                                      ["d-add", "nowhere.html"], ["nowhere.html"]]
