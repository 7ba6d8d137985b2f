"""A batch's mention writes commit in transactions bounded in rows, in their order."""

from __future__ import annotations

from graphrag_neo4j.indexing.graph.writer import bounded_transactions


def _step(name: str, rows: int) -> tuple[str, dict[str, object]]:
    return name, {"rows": [{"i": i} for i in range(rows)]}


def test_steps_are_packed_in_order_within_the_row_bound() -> None:
    steps = [_step("entities", 600), _step("entities", 500), _step("relations", 1000),
             _step("relations", 300), _step("merges", 0)]
    groups = bounded_transactions(steps, 1100)
    assert [[name for name, _ in group] for group in groups] == [
        ["entities", "entities"], ["relations"], ["relations", "merges"]]
    assert [step for group in groups for step in group] == steps


def test_a_step_larger_than_the_bound_goes_alone_and_nothing_makes_nothing() -> None:
    assert [len(g) for g in bounded_transactions([_step("a", 50), _step("b", 5)], 10)] == [1, 1]
    assert bounded_transactions([], 10) == []
