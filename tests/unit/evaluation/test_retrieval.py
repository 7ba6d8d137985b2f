"""Recall@k as HippoRAG defines it, the question file reader and the eval loop."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from graphrag_neo4j.cli.eval.retrieval import _int_list, results_table
from graphrag_neo4j.evaluation.retrieval import (
    EvalQuestion,
    MethodResult,
    evaluate_method,
    ranker_for,
    read_questions,
    recall_at,
)
from graphrag_neo4j.runtime.errors import InputError
from tests.unit.query.fakes import fake_services


def test_recall_is_the_share_of_gold_in_the_top_k() -> None:
    assert recall_at(["a", "x", "b"], ["a", "b"], 2) == 0.5
    assert recall_at(["a", "x", "b"], ["a", "b"], 5) == 1.0
    assert recall_at([], ["a"], 5) == 0.0
    assert recall_at(["a"], [], 5) == 0.0


def test_questions_file(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([
        {"id": "q1", "question": "Who?", "supporting_passage_ids": ["d1", "d2"]},
        {"question": "Where?", "supporting_passage_ids": ["d3"]},
    ]))
    assert read_questions(path) == [EvalQuestion("q1", "Who?", ["d1", "d2"]),
                                     EvalQuestion("1", "Where?", ["d3"])]
    assert len(read_questions(path, limit=1)) == 1


@pytest.mark.parametrize("content", ['{"question": "x"}', '[{"question": "x"}]', "not json"])
def test_bad_questions_file_is_one_clear_error(tmp_path: Path, content: str) -> None:
    path = tmp_path / "q.json"
    path.write_text(content)
    with pytest.raises(InputError, match=str(path)):
        read_questions(path)


async def test_each_question_runs_once_at_the_deepest_k() -> None:
    asked: list[tuple[str, int]] = []

    async def ranker(question: str, k: int) -> list[str]:
        asked.append((question, k))
        return ["a", "x", "b", "y", "z"]

    questions = [EvalQuestion("1", "q1", ["a", "b"]), EvalQuestion("2", "q2", ["z"])]
    sink = io.StringIO()
    result = await evaluate_method("naive", ranker, questions, [5, 2], sink)
    assert asked == [("q1", 5), ("q2", 5)]
    assert result.recall(2) == pytest.approx(25.0)
    assert result.recall(5) == pytest.approx(100.0)
    rows = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert rows[0]["recall@2"] == 0.5 and rows[1]["ranked"][4] == "z"


def test_table_has_a_row_per_method_and_marks_unavailable_ones() -> None:
    done = MethodResult("hops", [2, 5], {2: 1.0, 5: 2.0}, [0.05, 0.15])
    missing = MethodResult("local", [2, 5], unavailable="no module")
    table = results_table([done, missing], [2, 5], 2, {"hops.rerank": False})
    assert [column.header for column in table.columns][:3] == ["method", "Recall@2", "Recall@5"]
    assert list(table.columns[1].cells) == ["50.0", "n/a"]
    assert list(table.columns[3].cells) == ["100", "not available"]


@pytest.mark.parametrize("text", ["", "2,x", "0,5"])
def test_bad_k_list(text: str) -> None:
    with pytest.raises(InputError):
        _int_list(text)


def test_methods_that_rank_no_passages_are_reported_unavailable(tmp_path: Path) -> None:
    services = fake_services({}, [], tmp_path)
    assert ranker_for(services, "global", {}) == "global search ranks no passages"
    reason = ranker_for(services, "drfit", {})
    assert isinstance(reason, str) and reason.startswith("Unknown method 'drfit'")


async def test_a_ranker_runs_the_method_with_the_overrides(tmp_path: Path) -> None:
    rows = [{"chunk_id": "c1", "document_id": "d1", "title": "", "text": "x"}]
    services = fake_services({"query/search/search_chunks_by_vector": rows}, [], tmp_path)
    ranker = ranker_for(services, "naive", {"hops.degree": 2})
    assert not isinstance(ranker, str)
    assert await ranker("Who?", 5) == ["d1"]
