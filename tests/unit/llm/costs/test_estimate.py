"""Estimate records: ranges add up, unknown cost stays unknown, JSON and table render."""

from __future__ import annotations

import json

from rich.console import Console

from graphrag_neo4j.llm.costs.estimate import CostEstimate, Range, StageEstimate


def test_ranges_add_scale_and_print() -> None:
    total = Range.of(10) + Range(0, 6)
    assert (total.low, total.high, total.expected) == (10, 16, 13)
    assert not total.exact and Range.of(3).exact
    assert Range(2, 4, 2.5).scaled(2).expected == 5.0
    assert total.text() == "10-16" and Range.of(1234).text() == "1,234"
    assert Range(0.5, 1.25).text(".2f", "$") == "$0.50-$1.25"


def test_total_is_unknown_when_a_stage_has_no_price() -> None:
    estimate = CostEstimate(stages=[
        StageEstimate("extraction", Range.of(3), 1, Range.of(900), Range(3, 300),
                      cost=Range(0.1, 0.2), seconds=Range(1, 2)),
        StageEstimate("reports", Range(0, 2), cost=None, seconds=None),
    ])
    total = estimate.total()
    assert total.calls == Range(3, 5, 4) and total.cached_calls == 1
    assert total.cost is None and total.seconds is None
    assert not estimate.all_cached
    data = json.loads(estimate.to_json())
    assert [s["stage"] for s in data["stages"]] == ["extraction", "reports", "total"]
    console = Console(width=200, record=True)
    console.print(estimate.table())
    assert "unknown" in console.export_text()


def test_nothing_to_do_is_all_cached() -> None:
    estimate = CostEstimate(stages=[StageEstimate("extraction", cached_calls=5)])
    assert estimate.all_cached and estimate.total().cost == Range.of(0)
