"""Global search citations: each map point keeps the reports it rests on, the answer cites them."""

from __future__ import annotations

import json

from graphrag_neo4j.query.global_search.points import (
    Point,
    batch_refs,
    cited_answer,
    parse_points,
    reduce_block,
    report_citation,
)

BATCH = "id|title|content\n3|Bernoullis|Johann taught Euler.\n4|Basel|A city."


def _reply(*points: tuple[str, int]) -> str:
    return json.dumps({"points": [{"description": d, "score": s} for d, s in points]})


def test_batch_refs_are_the_first_column_of_each_row() -> None:
    assert batch_refs(BATCH) == ["3", "4"]


def test_a_point_keeps_the_refs_it_cites_from_its_batch_and_drops_invented_ones() -> None:
    (point,) = parse_points(_reply(("Johann taught Euler [Data: Reports (4, 9)]", 80)), ["3", "4"])
    assert point == Point("Johann taught Euler", 80, ("4",))


def test_a_point_citing_nothing_rests_on_its_whole_batch() -> None:
    (point,) = parse_points(_reply(("Basel is a city.", 40)), batch_refs(BATCH))
    assert point.reports == ("3", "4")


def test_the_reduce_prompt_shows_each_point_with_its_checked_citation() -> None:
    block = reduce_block([Point("Johann taught Euler", 80, ("4",))])
    assert block.splitlines() == [
        "----Analyst point 1----", "Importance: 80", "Johann taught Euler [Data: Reports (4)]"
    ]


def test_a_citation_lists_five_ids_then_more() -> None:
    seven = [str(n) for n in range(1, 8)]
    assert report_citation(seven) == "[Data: Reports (1, 2, 3, 4, 5, +more)]"


def test_the_answer_keeps_its_own_valid_citation() -> None:
    points = [Point("x", 80, ("3",))]
    text, added = cited_answer("Euler [Data: Reports (4, 12)].", points, {"3", "4"})
    assert (text, added) == ("Euler [Data: Reports (4)].", False)


def test_an_answer_without_a_valid_citation_cites_the_reports_of_its_points() -> None:
    points = [Point("x", 80, ("3",)), Point("y", 60, ("4", "3"))]
    text, added = cited_answer("Euler learnt from Johann [Data: Reports (12)].", points, {"3", "4"})
    assert (text, added) == ("Euler learnt from Johann. [Data: Reports (3, 4)]", True)
