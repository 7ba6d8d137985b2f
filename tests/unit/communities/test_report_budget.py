"""The stopping rule of community reports under a budget: what fits, the stop, the sentence."""

from __future__ import annotations

import random

import pytest

from graphrag_neo4j.communities.report_budget import (
    ReportsStoppedError,
    refused_retry,
    reports_that_fit,
    stop_before,
    stop_sentence,
)
from graphrag_neo4j.llm.costs.budget import Budget, BudgetExceededError
from graphrag_neo4j.llm.costs.estimate import Range, StageEstimate
from graphrag_neo4j.llm.costs.pricing import Prices

PRICES = Prices(1.0, 2.0, "settings")  # $1 per million prompt tokens, $2 per million completion


def _budget(max_cost: float | None = None, max_calls: int | None = None) -> Budget:
    budget = Budget(max_cost, max_calls)
    budget.bind(PRICES, "fake")
    return budget


def test_a_call_limit_admits_as_many_fresh_reports_as_calls_are_left_and_cached_ones_free(
) -> None:
    budget = _budget(max_calls=3)
    assert reports_that_fit(budget, [None, 100, 200, None, 300, 400], 1_000) == 5
    budget.before_call("community reports", 100)  # one call already spent
    assert reports_that_fit(budget, [100, 200, 300], 1_000) == 2
    assert reports_that_fit(_budget(max_calls=0), [None, None, 5], 1_000) == 2


def test_a_cost_limit_counts_exact_prompts_and_completions_at_max_tokens() -> None:
    budget = _budget(max_cost=0.01)
    # Each report: $0.001 of prompt + up to $0.002 of completion = $0.003 at most.
    assert reports_that_fit(budget, [1_000] * 4, 1_000) == 3
    budget.before_call("extract", 2_000)  # $0.002 spent elsewhere in the run
    assert reports_that_fit(budget, [1_000] * 4, 1_000) == 2
    budget.after_call(2_000, 2_000, 500)  # its reply: +$0.001
    assert reports_that_fit(budget, [1_000] * 4, 1_000) == 2  # 0.003 + 2 x 0.003 <= 0.01
    assert reports_that_fit(budget, [1_000, 2_000], 1_000) == 2  # 0.003 + 0.003 + 0.004
    assert reports_that_fit(budget, [2_000, 2_001], 1_000) == 1


@pytest.mark.parametrize("seed", range(20))
def test_rounds_of_fitting_reports_never_pass_the_limits(seed: int) -> None:
    """Write rounds as the report stage does, with replies of any length up to max_tokens."""
    rng = random.Random(seed)
    budget = _budget(max_cost=rng.uniform(0.0, 0.05), max_calls=rng.choice([None, 5, 12]))
    tokens: list[int | None] = [rng.choice([None, rng.randint(200, 4_000)]) for _ in range(30)]
    written = 0
    while tokens:
        count = reports_that_fit(budget, tokens, 1_500)
        if count == 0:
            break
        for value in tokens[:count]:
            if value is not None:  # the call path commits the prompt, then settles the reply
                budget.before_call("community reports", value)
                budget.after_call(value, value, rng.randint(0, 1_500))
        written, tokens = written + count, tokens[count:]
    assert budget.cost <= budget.max_cost + 1e-12  # type: ignore[operator]
    assert budget.max_calls is None or budget.calls <= budget.max_calls
    if tokens:  # stopped: the next fresh report could pass a limit at its worst
        assert tokens[0] is not None
        assert budget.passes(1, tokens[0], 1_500) is not None


def test_the_stop_names_the_report_what_it_could_cost_and_the_limit() -> None:
    budget = _budget(max_cost=0.01)
    budget.before_call("community reports", 9_000)
    stop = stop_before(budget, "report 4 of 9 on level 1", [2_000, None, 500], 1_000)
    assert str(stop) == ("report 4 of 9 on level 1, whose 1 LLM call and up to $0.0040 would"
                         " pass --max-cost 0.01 USD")
    assert stop.limit == "--max-cost 0.01 USD" and stop.left == [2_000, None, 500]
    calls_only = stop_before(_budget(max_calls=0), "report 1 of 3 on level 0", [10], 100)
    assert "would pass --max-llm-calls 0" in str(calls_only)


def test_a_refused_retry_stops_before_its_report() -> None:
    refusal = BudgetExceededError("Stopped before an LLM call ...", "--max-llm-calls 2")
    stop = refused_retry(refusal, "report 2 of 5 on level 0", [None, 30])
    assert isinstance(stop, ReportsStoppedError) and stop.left == [None, 30]
    assert str(stop).endswith("whose retry after an invalid reply would pass --max-llm-calls 2")


def test_the_sentence_says_where_what_was_written_what_is_left_and_its_cost() -> None:
    stop = ReportsStoppedError("report 4 of 9 on level 1, whose 1 LLM call would pass"
                          " --max-llm-calls 3", "--max-llm-calls 3", [10, 20])
    rest = StageEstimate("community reports", Range(5, 10), 1, cost=Range(0.002, 0.0125))
    sentence = stop_sentence(stop, 3, 2, 6, rest, "3 LLM calls")
    assert sentence == (
        "Stopped community reports before report 4 of 9 on level 1, whose 1 LLM call would pass"
        " --max-llm-calls 3 (3 LLM calls used): 3 reports written and stored this run (2"
        " reused), 6 left with their extractive summaries (estimated $0.0020-$0.0125), and the"
        " same command run again (with a higher limit) writes only those."
    )
    unknown = StageEstimate("community reports", Range(5, 10), cost=None)
    sentence = stop_sentence(stop, 0, 0, 5, unknown, "0 LLM calls")
    assert "(cost unknown: the model has no price)" in sentence
