"""`eval answers`: the miss split on canned contexts, the budget, resuming and the table."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table

from graphrag_neo4j.cli.eval.answers import GOLD_RIGHT, MEASURES, answers_table, judge_table
from graphrag_neo4j.evaluation.answers import (
    BUDGET_SETTINGS,
    AnswerSummary,
    answer_questions,
    budget_overrides,
    context_documents,
    read_done,
    reports_written_note,
    right_from_gold,
    run_key,
    score_answer,
)
from graphrag_neo4j.evaluation.judge import PairResult
from graphrag_neo4j.evaluation.retrieval import EvalQuestion, read_questions
from graphrag_neo4j.query.base import Answer, make_query
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import Settings

QUESTION = EvalQuestion("q1", "Who taught Euler?", ["d1", "d2"], ("Johann Bernoulli", "Johann"))


def _answer(text: str, documents: list[str]) -> Answer:
    rows = [{"ref": n, "document_id": d, "text": f"passage of {d}"}
            for n, d in enumerate(documents, 1)]
    return Answer(text=text, method="naive", context="...", sources={"Sources": rows,
                                                                      "Mentions": [{"text": "x"}]})


@pytest.mark.parametrize(("text", "shown", "right", "miss"), [
    ("Johann Bernoulli [Data: Sources (1)]", ["d1", "d2"], True, ""),
    ("Johann Bernoulli", ["d1"], True, ""),           # right without every gold passage
    ("Leonhard Euler", ["d2", "d1", "d3"], False, "reasoning"),  # gold shown, answer wrong
    ("Leonhard Euler", ["d1", "d3"], False, "retrieval"),        # a gold passage missing
    ("I do not know", [], False, "retrieval"),
])
def test_each_wrong_answer_is_a_retrieval_or_a_reasoning_miss(
    text: str, shown: list[str], right: bool, miss: str
) -> None:
    record = score_answer(QUESTION, _answer(text, shown), 1.5)
    assert record["right"] is right and record["miss"] == miss
    assert record["context_documents"] == shown
    assert record["gold_in_context"] == ({"d1", "d2"} <= set(shown))


def test_a_question_without_gold_answer_is_not_scored() -> None:
    record = score_answer(EvalQuestion("g", "Main themes?", []), _answer("Greed.", ["d1"]), 1)
    assert record["right"] is None and record["miss"] is None
    assert record["gold_in_context"] is None


def test_context_documents_are_the_rows_shown_each_once() -> None:
    assert context_documents(_answer("x", ["d2", "d1", "d2"])) == ["d2", "d1"]


def test_one_budget_for_every_method_is_valid_for_every_query() -> None:
    overrides = budget_overrides(1500)
    query = make_query(Settings(), "Who?", **overrides)
    assert query.search.passage_context_tokens == 1500
    assert query.search.local.context_tokens == 1500
    assert query.search.drift.reduce_tokens == 1500 and query.search.global_.reduce_tokens == 1500
    assert query.search.cypher.context_tokens == 1500  # the cypher method on the budget too
    assert set(overrides) == set(BUDGET_SETTINGS)
    with pytest.raises(InputError, match="at least 100"):
        budget_overrides(10)


async def test_answers_are_resumed_from_the_jsonl_of_the_same_settings(tmp_path: Path) -> None:
    asked: list[str] = []

    async def ask(item: EvalQuestion) -> Answer:
        asked.append(item.question)
        return _answer("Johann", ["d1", "d2"])

    questions = [QUESTION, EvalQuestion("q2", "Where?", ["d3"], ("Basel",))]
    path = tmp_path / "answers.jsonl"
    key = run_key({"passage_context_tokens": 1000})
    with path.open("a") as sink:
        first = await answer_questions("naive", ask, questions[:1], {}, sink, key=key)
    assert asked == ["Who taught Euler?"] and len(first.records) == 1
    with path.open("a") as sink:  # a killed run left half a line behind
        sink.write('{"method": "naive", "id": "q2", "ru')
        sink.write("\n")
    done = read_done(path, key)
    assert set(done) == {("naive", "q1")}
    assert read_done(path, run_key({"passage_context_tokens": 2000})) == {}
    with path.open("a") as sink:
        second = await answer_questions("naive", ask, questions, done, sink, key=key)
    assert asked == ["Who taught Euler?", "Where?"]
    assert [r["id"] for r in second.records] == ["q1", "q2"]
    assert second.percent("em") == 50.0 and second.percent("f1") == 50.0  # alias "Johann"
    assert second.misses("retrieval") == 1  # q2's gold passage d3 was not shown


def test_a_resumed_record_is_judged_by_the_current_rule(tmp_path: Path) -> None:
    key = run_key({})
    written = {**score_answer(QUESTION, _answer("Jakob Bernoulli", ["d1", "d2"]), 1),
               "run": key, "method": "naive", "right": True, "miss": ""}  # an older, looser rule
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps(written) + "\n")
    record = read_done(path, key)[("naive", "q1")]
    assert record["right"] is False and record["miss"] == "reasoning"


async def test_misfits_are_counted_with_how_many_of_them_were_right(tmp_path: Path) -> None:
    when = EvalQuestion("q2", "When did Euler die?", ["d1"], ("1783",))
    texts = {QUESTION.question: "Euler", when.question: "Saint Petersburg"}

    async def ask(item: EvalQuestion) -> Answer:
        return _answer(texts[item.question], ["d1"])

    summary = await answer_questions("naive", ask, [QUESTION, when], {})
    assert [r["misfit"] for r in summary.records] == [
        "only repeats words of the question, which asks for something it does not name",
        "gives no date or time, which the question asks for",
    ]
    assert summary.misfits() == (2, 0)
    assert _column(answers_table([summary], 2, 1500), "naive")["misfit (right)"] == "2 (0)"
    key = run_key({})
    path = tmp_path / "answers.jsonl"
    older = {k: v for k, v in summary.records[1].items() if k != "misfit"}  # before the check
    path.write_text(json.dumps({**older, "run": key}) + "\n")
    assert read_done(path, key)[("naive", "q2")]["misfit"].startswith("gives no date")


def _column(table: Table, header: str) -> dict[str, str]:
    """The cells of one method's column by measure."""
    columns = {str(column.header): [str(cell) for cell in column._cells]
               for column in table.columns}
    return dict(zip(columns["measure"], columns[header], strict=True))


def test_every_measure_of_five_methods_fits_an_80_column_terminal() -> None:
    summaries = [AnswerSummary(name, records=[{
        "right": False, "em": 0.0, "f1": 0.123, "miss": "retrieval", "misfit": "",
        "grounding": "flag", "unsupported_entities": [], "context_tokens": 1499,
        "prompt_tokens": 12345, "completion_tokens": 321, "seconds": 123.4,
    }]) for name in ("naive", "local", "hops", "drift", "global")]
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(answers_table(summaries, 50, 1500))
    shown = console.export_text()
    assert "…" not in shown
    for measure, _ in MEASURES:
        assert measure in shown


def test_the_judge_table_of_two_pairs_fits_an_80_column_terminal() -> None:
    results = [PairResult(first, second, questions=50)
               for first, second in (("global", "drift"), ("naive", "global"))]
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(judge_table(results))
    shown = console.export_text()
    assert "…" not in shown and "comprehensiveness" in shown
    assert all(len(line) <= 80 for line in shown.splitlines())


def test_a_run_that_wrote_community_reports_says_local_may_differ_next_time() -> None:
    assert reports_written_note(12, 12) is None
    note = reports_written_note(12, 15)
    assert note is not None and note.startswith("This run wrote 3 community reports (12 before")
    assert "Local search reads them" in note


async def test_a_method_the_graph_cannot_run_is_unavailable() -> None:
    async def ask(item: EvalQuestion) -> Answer:
        raise InputError("Local search cannot use the index; index some documents first.")

    summary = await answer_questions("local", ask, [QUESTION], {}, io.StringIO())
    assert summary.unavailable is not None and summary.unavailable.startswith("Local search")
    assert summary.records == []


async def test_table_shows_scores_misses_and_grounding() -> None:
    async def ask(item: EvalQuestion) -> Answer:
        answer = _answer("Leonhard Euler and Oliver Twist", ["d1", "d2"])
        answer.grounding, answer.unsupported_entities = "flag", ["Oliver Twist"]
        return answer

    summary = await answer_questions("hops", ask, [QUESTION], {})
    unavailable = AnswerSummary("cypher", unavailable="no typed labels")
    table = answers_table([summary, unavailable], 1, 1500)
    row = _column(table, "hops")
    assert "1500" in str(table.title)
    assert set(_column(table, "cypher (not available)").values()) == {"n/a"}
    assert row["F1"] == "0.0" and row["reasoning miss"] == "1" and row["retrieval miss"] == "0"
    assert row["unsupported %"] == "100.0" and row["after grounding %"] == "100.0"
    assert row["misfit (right)"] == "0 (0)"
    summary.records[0]["grounding"] = "drop"  # drop removed the sentences naming them
    assert summary.unsupported_share(after_grounding=True) == 0.0


def test_questions_with_answers_and_aliases(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([
        {"id": "a", "question": "Country?", "answer": "Norway", "answer_aliases": ["NO", ""],
         "supporting_passage_ids": ["p1"]},
        {"id": "g", "question": "What are the main themes?"},
    ]))
    items = read_questions(path, need_passages=False)
    assert items[0].answers == ("Norway", "NO") and items[1].answers == ()
    assert items[1].gold == []
    with pytest.raises(InputError, match="supporting_passage_ids"):
        read_questions(path)


def _summary(method: str, outcomes: dict[str, str]) -> AnswerSummary:
    """A method's records: question id -> "" (right), "reasoning" or "retrieval"."""
    return AnswerSummary(method, records=[{
        "id": qid, "right": not miss, "miss": miss, "em": float(not miss), "f1": 0.5,
        "misfit": "", "grounding": "flag", "unsupported_entities": [], "context_tokens": 300,
        "prompt_tokens": 200, "completion_tokens": 3, "seconds": 2.0,
    } for qid, miss in outcomes.items()])


def test_a_methods_reasoning_misses_are_counted_against_the_gold_column() -> None:
    local = _summary("local", {"q1": "reasoning", "q2": "reasoning", "q3": "retrieval",
                               "q4": ""})
    gold = _summary("gold", {"q1": "", "q2": "reasoning", "q3": "", "q4": ""})
    # q1: the gold passages alone answer it, so local's context was in the way; q2: the model
    # misses it even then; q3 was a retrieval miss and is not counted.
    assert right_from_gold(local, gold) == 1
    rows = _column(answers_table([local, gold], 4, 1500), "local")
    assert rows["reasoning miss"] == "2" and rows[GOLD_RIGHT] == "1"
    assert _column(answers_table([local, gold], 4, 1500), "gold")[GOLD_RIGHT] == "n/a"
    assert GOLD_RIGHT not in _column(answers_table([local], 4, 1500), "local")


def test_gold_context_is_refused_for_questions_without_gold_passages(tmp_path: Path) -> None:
    questions = tmp_path / "global.json"
    questions.write_text(json.dumps([{"question": "What are the main themes?"}]))
    # The real command: the refusal comes before any connection, in one sentence.
    run = subprocess.run(
        [sys.executable, "-m", "graphrag_neo4j", "eval", "answers", "--questions",
         str(questions), "--gold-context"], capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 1
    message = " ".join((run.stdout + run.stderr).split())
    assert "--gold-context needs gold passages and answers for every question" in message
    assert "lacks them for 1 (first: 0)" in message and "Traceback" not in message
