"""eval retrieval's paired comparison with naive: per-k differences, intervals, the table."""

from __future__ import annotations

import io

from rich.console import Console

from graphrag_neo4j.cli.eval.retrieval import significance_table
from graphrag_neo4j.evaluation.retrieval import MethodResult
from graphrag_neo4j.evaluation.retrieval_run import against_baseline


def _result(method: str, recalls: list[float], k: int = 5) -> MethodResult:
    result = MethodResult(method, [2, k])
    result.per_question = {f"q{i}": {2: r, k: r} for i, r in enumerate(recalls)}
    result.seconds = [0.01] * len(recalls)
    return result


def test_each_method_is_compared_with_naive_wherever_it_ran() -> None:
    naive = _result("naive", [0.5] * 20)
    ppr = _result("ppr", [1.0] * 10 + [0.5] * 10)
    local = _result("local", [0.5] * 19 + [0.0])
    rows = against_baseline([ppr, naive, local, MethodResult("drift", [2, 5], unavailable="x")],
                            "naive")
    assert [[c.method for c in row] for row in rows] == [["ppr", "ppr"], ["local", "local"]]
    better, worse = rows[0][1], rows[1][1]
    assert (better.k, better.difference, better.gained, better.lost) == (5, 25.0, 10, 0)
    assert better.differs and better.low > 0 and better.p_value < 0.01
    assert (worse.difference, worse.gained, worse.lost) == (-2.5, 0, 1) and not worse.differs
    text = io.StringIO()
    Console(file=text, width=100).print(significance_table(rows))
    assert "Against naive" in text.getvalue()
    assert "+25.0 [+15.0, +35.0]" in text.getvalue() and "+10 / -0" in text.getvalue()


def test_without_naive_the_first_method_is_the_baseline() -> None:
    rows = against_baseline([_result("hops", [1.0]), _result("ppr", [0.0])], "naive")
    assert rows[0][0].baseline == "hops" and rows[0][0].difference == -100.0
    assert against_baseline([_result("hops", [1.0])], "naive") == []
