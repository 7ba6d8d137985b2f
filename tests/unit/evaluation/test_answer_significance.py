"""The paired comparison of two methods: McNemar's exact p, the bootstrap interval, the table."""

from __future__ import annotations

import io

from rich.console import Console

from graphrag_neo4j.cli.eval.answers import significance_table
from graphrag_neo4j.evaluation.answer_run import against_baseline
from graphrag_neo4j.evaluation.answer_significance import compare
from graphrag_neo4j.evaluation.answers import AnswerSummary


def _summary(method: str, f1s: list[float]) -> AnswerSummary:
    """One record a question (ids q0, q1, ...); right when F1 is 1."""
    return AnswerSummary(method, records=[
        {"id": f"q{i}", "f1": f1, "em": f1, "right": f1 == 1.0, "miss": "" if f1 == 1 else
         "retrieval"} for i, f1 in enumerate(f1s)])


def test_the_same_answers_do_not_differ() -> None:
    naive = _summary("naive", [1.0, 0.0, 0.5] * 10)
    result = compare(_summary("hops", [1.0, 0.0, 0.5] * 10), naive)
    assert result is not None
    assert (result.f1_difference, result.low, result.high) == (0.0, 0.0, 0.0)
    assert (result.gained, result.lost, result.p_value) == (0, 0, 1.0)
    assert not result.differs


def test_mcnemar_counts_only_the_questions_the_two_disagree_on() -> None:
    # 7 questions turned right, 2 turned wrong, 41 alike: the exact two-sided binomial test
    # of 7 in 9 at one half is 2 * (C(9,7) + C(9,8) + C(9,9)) / 2**9 = 92 / 512.
    base = [0.0] * 7 + [1.0] * 2 + [1.0] * 20 + [0.0] * 21
    new = [1.0] * 7 + [0.0] * 2 + [1.0] * 20 + [0.0] * 21
    result = compare(_summary("hops", new), _summary("naive", base))
    assert result is not None
    assert (result.gained, result.lost, result.questions) == (7, 2, 50)
    assert abs(result.p_value - 92 / 512) < 1e-12
    assert result.f1_difference == 10.0  # (7 - 2) questions of 50, in points


def test_a_steady_gain_is_beyond_chance_and_a_lucky_one_is_not() -> None:
    naive = _summary("naive", [0.0] * 50)
    steady = compare(_summary("hops", [1.0] * 20 + [0.0] * 30), naive)
    lucky = compare(_summary("local", [1.0] + [0.0] * 49), naive)
    assert steady is not None and lucky is not None
    assert steady.differs and steady.low > 20 and steady.p_value < 0.001
    assert not lucky.differs and lucky.low == 0.0 and lucky.p_value == 1.0
    again = compare(_summary("hops", [1.0] * 20 + [0.0] * 30), naive)
    assert again == steady  # a fixed seed: the same records print the same interval


def test_only_questions_both_answered_are_paired() -> None:
    naive = _summary("naive", [0.0, 1.0])
    hops = _summary("hops", [1.0, 1.0, 1.0])
    result = compare(hops, naive)
    assert result is not None and result.questions == 2 and result.gained == 1
    assert compare(hops, AnswerSummary("drift")) is None


def test_the_table_compares_each_method_with_the_first_scored_one() -> None:
    summaries = [AnswerSummary("cypher", unavailable="no typed labels"),
                 _summary("naive", [0.0] * 50), _summary("local", [1.0] + [0.0] * 49),
                 _summary("hops", [1.0] * 20 + [0.0] * 30),
                 _summary("gold", [1.0] * 45 + [0.0] * 5)]
    comparisons = against_baseline(summaries)
    assert [(c.method, c.baseline) for c in comparisons] == [
        ("local", "naive"), ("hops", "naive"), ("gold", "naive")]
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(significance_table(comparisons))
    shown = console.export_text()
    assert "…" not in shown and "Against naive" in shown
    assert all(len(line) <= 80 for line in shown.splitlines())
    assert "[+" in next(line for line in shown.splitlines() if "gold" in line)  # not wrapped
    hops_row = next(line for line in shown.splitlines() if "hops" in line)
    assert "+40.0 [" in hops_row and "+20 / -0" in hops_row and "yes" in hops_row
    assert against_baseline(summaries[:2]) == []
