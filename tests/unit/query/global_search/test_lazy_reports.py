"""Global search over a level without LLM reports: vector choice, lazy writes, retrieve-only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from graphrag_neo4j.llm.tokens.counting import CHARS_PER_TOKEN, estimate_tokens
from graphrag_neo4j.query.answers.run import retrieve_only, run_query
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.global_search.lazy_reports import LEVEL_MARGIN, level_candidates
from graphrag_neo4j.query.global_search.level_reading import level_reading
from graphrag_neo4j.query.global_search.search import GlobalSearch, unread_map_calls
from graphrag_neo4j.query.retrieval.candidates import ann_candidates
from tests.unit.query.fakes import fake_services

Row = dict[str, Any]


def extract(cid: str, title: str, status: str = "extractive", mode: str = "lazy",
            size: int = 2) -> Row:
    return {"id": cid, "level": 0, "title": title, "summary": f"{title} sentences.",
            "full_content": f"# {title}\n\n{title} sentences.", "rank": 0.0,
            "report_status": status, "report_mode": mode, "size": size}


LEVEL = [extract("k1", "Scrooge and Marley", size=5), extract("k2", "Fezziwig", size=3),
         extract("k3", "Tiny Tim")]
NEAREST = [{**LEVEL[0], "score": 0.9}, {**LEVEL[2], "score": 0.7}]


def context_row(cid: str, name: str) -> Row:
    return {"id": cid, "entities": [{"id": f"e-{cid}", "name": name, "type": "person",
                                     "description": f"{name} lives.", "degree": 1}],
            "relations": [], "children": [], "content_hash": None,
            "report_status": "extractive", "title": name, "summary": "", "embedded": True}


def report(prompt: str) -> str:
    name = "Scrooge" if "Scrooge" in prompt else "Tim"
    return json.dumps({"title": f"{name} report", "summary": f"All about {name}.",
                       "rating": 7, "rating_explanation": "Central.",
                       "findings": [{"summary": name, "explanation": "So it is."}]})


def map_reply(prompt: str) -> str:
    assert "Scrooge report" in prompt and "extractive" not in prompt
    return json.dumps({"points": [{"description": "Greed [Data: Reports (1)]", "score": 80}]})


def rows(contexts: list[Row]) -> dict[str, list[Row]]:
    return {
        "query/communities/community_levels": [{"level": 0, "communities": 3}],
        "query/communities/community_level_status": [
            {"communities": 3, "waiting": True, "total": 3}
        ],
        "query/communities/community_reports_at_level": LEVEL,
        "query/search/search_communities_by_vector": NEAREST,
        "communities/reports/community_contexts": contexts,
    }


async def test_a_lazy_level_writes_the_nearest_reports_and_maps_over_the_level(
    tmp_path: Path,
) -> None:
    contexts = [context_row("k1", "Scrooge"), context_row("k3", "Tim")]
    services = fake_services(rows(contexts), [
        ("briefing reports on communities", report),
        ("community\nreports", map_reply), ("Several analysts", "Greed [Data: Reports (1)]."),
    ], tmp_path)
    query = make_query(services.settings, "What are the themes?", level=0,
                       lazy_report_budget=2)
    answer = await run_query(services, GlobalSearch(services), query)
    assert answer.text == "Greed [Data: Reports (1)]."
    assert services.store.params_of("query/search/search_communities_by_vector")[0]["k"] == 2
    (written,) = [w for name, w in services.store.writes
                  if name == "communities/reports/set_community_reports"]
    assert [(r["id"], r["report_status"]) for r in written] == [("k1", "ok"), ("k3", "ok")]
    assert all(r["embedding"] and r["content_hash"] and r["findings"] for r in written)
    selection = answer.selection
    assert selection is not None and selection.lazy and selection.reports_written == 2
    assert answer.notes[-1].text == "Wrote 2 community reports for this question; 0 reused."
    # The nearest two by their fresh reports, then the rest of the level by its extracts.
    assert [r["title"] for r in answer.sources["Reports"]] == [
        "Scrooge report", "Tim report", "Fezziwig"]
    assert answer.llm_calls == 4  # two reports, one map, one reduce


async def test_retrieve_only_shows_extracts_and_writes_nothing(tmp_path: Path) -> None:
    services = fake_services(rows([]), [], tmp_path)
    query = make_query(services.settings, "What are the themes?", level=0,
                       lazy_report_budget=2)
    answer = await retrieve_only(services, "global", GlobalSearch(services), query)
    assert answer.llm_calls == 0 and services.store.writes == []
    assert "1|Scrooge and Marley|# Scrooge and Marley Scrooge and Marley sentences." in (
        answer.context)
    assert answer.note_texts() == ["Level 0 has communities without an LLM report; chose the 2"
                            " nearest the question (2 of them without one yet).",
                            "Read 3 of level 0's 3 communities, 100% of its 10 entities."]


async def test_a_level_built_without_reports_maps_over_all_extracts(tmp_path: Path) -> None:
    services = fake_services(
        {
            **rows([]),
            "query/communities/community_reports_at_level": [
                extract(c["id"], c["title"], mode="none") for c in LEVEL
            ],
            "query/communities/community_level_status": [
                {"communities": 3, "waiting": False, "total": 3}
            ],
        },
        [],
        tmp_path,
    )
    answer = await retrieve_only(services, "global", GlobalSearch(services),
                                 make_query(services.settings, "Themes?", level=0))
    assert len(answer.sources["Reports"]) == 3
    assert not services.store.params_of("query/search/search_communities_by_vector")


def test_a_level_is_asked_for_by_its_share_of_the_index() -> None:
    assert level_candidates(5, 1000, 4000) == 100  # a quarter holds ~25 >= 5 x 2: the minimum
    assert level_candidates(5, 40, 4000) == 1000  # 1 %: 5 x 2 over a hundredth share
    assert level_candidates(5, 30, 40000) == 13334  # rounded up, never short of the margin
    assert level_candidates(5, 10, 40) == 40  # never more than every community
    assert level_candidates(5, 0, 40) == 40


@given(st.integers(1, 50), st.integers(1, 100_000), st.integers(1, 100_000))
def test_the_candidates_expect_k_times_the_margin_of_the_level_or_take_every_community(
    k: int, at_level: int, more: int
) -> None:
    total = at_level + more - 1
    asked = level_candidates(k, at_level, total)
    assert asked == total or asked * at_level >= k * LEVEL_MARGIN * total
    assert min(total, ann_candidates(k)) <= asked <= total


async def test_a_level_short_of_k_near_ones_is_searched_whole(tmp_path: Path) -> None:
    services = fake_services(rows([]), [], tmp_path)
    services.store.rows["query/communities/community_level_status"] = [
        {"communities": 3, "waiting": True, "total": 1000}]
    query = make_query(services.settings, "What are the themes?", level=0,
                       lazy_report_budget=3)
    await retrieve_only(services, "global", GlobalSearch(services), query)
    asked = [p["candidates"] for p in services.store.params_of(
        "query/search/search_communities_by_vector")]
    assert asked == [1000]  # 3 x 2 x 1000 / 3 is past every community: one whole search
    services.store.rows["query/communities/community_level_status"] = [
        {"communities": 300, "waiting": True, "total": 1000}]
    services.store.reads.clear()
    await retrieve_only(services, "global", GlobalSearch(services), query)
    asked = [p["candidates"] for p in services.store.params_of(
        "query/search/search_communities_by_vector")]
    assert asked == [100, 1000]  # the share's search found 2 of 3: then the whole index
    # The level's rows are read once, for the map to cover the level (issue 58).
    assert services.store.params_of("query/communities/community_reports_at_level") == [
        {"level": 0}
    ]
    assert not services.store.params_of(
        "query/communities/community_levels"
    )  # the level exists: no list


def test_estimated_tokens_round_up() -> None:
    assert [estimate_tokens(n) for n in (0, 1, 4, 5, -3)] == [0, 1, 1, 2, 0]


def test_the_calls_a_lazy_level_saved_are_estimated_from_the_reports_read() -> None:
    batch = "x" * (400 * CHARS_PER_TOKEN)  # two reports read, 200 estimated tokens each
    assert unread_map_calls([batch], read=2, communities=10, budget=1000) == 1  # 2,000 tokens
    assert unread_map_calls([batch], read=2, communities=2, budget=1000) == 0
    assert unread_map_calls([], read=0, communities=10, budget=1000) == 0


def test_the_map_budget_reads_the_nearest_then_the_largest_and_says_the_share() -> None:
    big = [extract(f"b{n}", "word " * 200, size=40) for n in range(3)]  # ~500 tokens each
    small = [extract(f"s{n}", "Tim", size=1) for n in range(20)]
    nearest = [small[0]]
    rows, coverage = level_reading(1, nearest, [*big, *small], budget_tokens=1200)
    assert rows[0]["id"] == "s0" and [r["id"] for r in rows[1:3]] == ["b0", "b1"]
    assert "b2" not in {r["id"] for r in rows}  # over the budget: the small ones still fit
    assert coverage.read == len(rows) and coverage.entities == 140
    assert coverage.entities_read == 2 * 40 + (len(rows) - 2)  # two big ones, the small
    assert "global.map_budget_tokens (1,200) reads more when raised" in coverage.note
