"""What a query's rows say about it: nothing found, or a count that ranks nothing."""

from __future__ import annotations

from graphrag_neo4j.query.cypher.attempt import Attempt

GROUPED = "MATCH (o:Organization) RETURN o.name AS name, count(*) AS relations ORDER BY relations"


def test_a_count_of_one_on_every_row_ranks_nothing() -> None:
    rows = [{"name": "Cratchits", "relations": 1}, {"name": "Spirit", "relations": 1}]
    assert Attempt(GROUPED, rows=rows).counts_each_once
    assert Attempt(GROUPED, rows=rows).answers


def test_one_row_a_count_above_one_true_values_or_no_count_are_not_flagged() -> None:
    assert not Attempt(GROUPED, rows=[{"name": "Spirit", "relations": 1}]).counts_each_once
    mixed = [{"name": "Spirit", "relations": 7}, {"name": "Cratchits", "relations": 1}]
    assert not Attempt(GROUPED, rows=mixed).counts_each_once
    flags = [{"name": "a", "named": True}, {"name": "b", "named": True}]
    assert not Attempt(GROUPED, rows=flags).counts_each_once
    ones = [{"name": "a", "level": 1}, {"name": "b", "level": 1}]
    assert not Attempt("MATCH (c:__Community__) RETURN c.title AS name, c.level AS level",
                       rows=ones).counts_each_once
    assert not Attempt(GROUPED, "failed", rows=[]).counts_each_once


def test_zeros_and_empty_values_answer_nothing() -> None:
    assert not Attempt("MATCH (p) RETURN count(p) AS n", rows=[{"n": 0}]).answers
    assert not Attempt("MATCH (p) RETURN p.name AS n", rows=[]).answers


def test_rows_of_numbers_alone_are_nameless_and_a_name_or_a_flag_is_not() -> None:
    count = "MATCH (o:Organization) RETURN count(o) AS n"
    assert Attempt(count, rows=[{"n": 30}]).numbers_only
    assert Attempt(count, rows=[{"n": 3, "share": 0.5}, {"n": 2, "share": 0.25}]).numbers_only
    assert not Attempt(count, rows=[{"n": 30, "name": "Spirit"}]).numbers_only
    assert not Attempt(count, rows=[{"n": True}]).numbers_only
    assert not Attempt(count, rows=[{"n": 0}]).numbers_only  # found nothing
    assert not Attempt(count, "failed").numbers_only
