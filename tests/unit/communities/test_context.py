"""Report contexts: tables within the budget, sub-reports standing in for crowded members."""

from __future__ import annotations

import itertools

from graphrag_neo4j.communities.context import (
    ChildReport,
    EntityRow,
    RelationRow,
    TokenCounter,
    build_context,
    entity_rows,
)


def entities(prefix: str, count: int, words: int = 30) -> list[EntityRow]:
    text = " ".join(["detail"] * words)
    return [EntityRow(f"{prefix}{i}", f"{prefix.upper()} {i}", "person", text, count - i)
            for i in range(count)]


def chain(rows: list[EntityRow]) -> list[RelationRow]:
    return [RelationRow(f"r-{a.id}-{b.id}", a.id, a.name, b.id, b.name, "knows",
                        "They know each other.", 1.0, a.degree + b.degree)
            for a, b in itertools.pairwise(rows)]


def test_a_small_community_shows_every_member_and_relation() -> None:
    rows = entities("a", 3, words=3)
    context = build_context(rows, chain(rows), [], 1000, TokenCounter())
    assert context.entity_ids == ["a0", "a1", "a2"]
    assert context.relation_ids == ["r-a0-a1", "r-a1-a2"]
    assert "-----Entities-----" in context.text and "A 1|person" in context.text
    assert context.tokens <= 1000 and not context.report_ids


def test_cells_stay_on_one_line_without_separators() -> None:
    (row,) = entity_rows([{"id": "x", "name": "X|Y", "type": None,
                           "description": "two\nlines", "degree": None}])
    assert row.line == "x|X/Y||two lines|0"


def test_crowded_community_uses_largest_sub_reports_first() -> None:
    left, right = entities("l", 20), entities("r", 10)
    relations = chain(left) + chain(right) + chain([left[0], right[0]])
    children = [
        ChildReport("big", frozenset(e.id for e in left), "# Left report\n\nAbout L."),
        ChildReport("small", frozenset(e.id for e in right), "# Right report\n\nAbout R."),
    ]
    counter = TokenCounter()
    full = build_context(left + right, relations, [], 100_000, counter)
    budget = full.tokens // 2
    context = build_context(left + right, relations, children, budget, counter)
    assert context.report_ids == ["big"]
    assert context.tokens <= budget
    assert not set(context.entity_ids) & {e.id for e in left}
    assert set(context.entity_ids) == {e.id for e in right}
    assert "r-l0-r0" in context.relation_ids  # crosses sub-communities: still shown
    assert "r-l0-l1" not in context.relation_ids  # inside the replaced sub-community


def test_over_budget_without_sub_reports_keeps_the_most_connected_members() -> None:
    rows = entities("a", 40)
    context = build_context(rows, chain(rows), [], 300, TokenCounter())
    assert 0 < len(context.entity_ids) < 40
    assert context.entity_ids == [f"a{i}" for i in range(len(context.entity_ids))]
    assert context.tokens <= 300
    assert len(context.member_names) == 40


def test_hash_follows_text_and_inputs() -> None:
    rows = entities("a", 3)
    one = build_context(rows, chain(rows), [], 1000, TokenCounter())
    same = build_context(list(rows), chain(rows), [], 1000, TokenCounter())
    changed = [*rows[:2], EntityRow("a2", "A 2", "person", "new text", 1)]
    other = build_context(changed, chain(changed), [], 1000, TokenCounter())
    assert one.content_hash("prompt") == same.content_hash("prompt")
    assert one.content_hash("prompt") != other.content_hash("prompt")
    assert one.content_hash("prompt") != one.content_hash("another prompt")
