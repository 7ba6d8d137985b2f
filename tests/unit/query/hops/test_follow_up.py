"""Hops' follow-up: the query a reply holds, and the method with a fake
model: a passage found only through the follow-up comes after the first ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.hops.follow_up import (
    follow_up_mentions,
    numbered_passages,
    parse_follow_up,
)
from graphrag_neo4j.query.hops.search import HopsSearch
from tests.unit.query.fakes import EULER_SUBGRAPH, Canned, fake_services

PASSAGES = {
    "c1": {"chunk_id": "c1", "document_id": "d1", "title": "Euler",
           "text": "Euler studied with Johann Bernoulli."},
    "c2": {"chunk_id": "c2", "document_id": "d2", "title": "Daniel",
           "text": "Daniel was Johann's son."},
    "c3": {"chunk_id": "c3", "document_id": "d1", "title": "Euler",
           "text": "Euler moved to Berlin."},
    # Named by no relation and far from the question: only the follow-up's words reach it.
    "c4": {"chunk_id": "c4", "document_id": "d4", "title": "Academy",
           "text": "Daniel Bernoulli taught at the Basel academy."},
}
BASE_SCORES = {"c1": 0.6, "c2": 0.5, "c3": 0.4, "c4": 1.5}
QUESTION = "Where did the son of Euler's teacher teach?"
FOLLOW_UP_RULE = "fact still missing"


def _fulltext(params: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**PASSAGES["c4"], "score": 3.0}] if "academy" in params["query"] else []


ROWS: dict[str, Canned] = {
    **EULER_SUBGRAPH,
    "query/search/search_chunks_by_vector": [{**PASSAGES["c3"], "score": 0.7}],
    "query/search/search_chunks_by_fulltext": _fulltext,
    "query/hops/score_chunks": lambda params: [
        {"chunk_id": c, "document_id": PASSAGES[c]["document_id"],
         "cooccurrence_relations": False, "score": BASE_SCORES[c]} for c in params["ids"]],
    "query/chunks_by_ids": lambda params: [PASSAGES[c] for c in params["ids"]],
}


def test_the_query_is_the_first_line_without_its_label_or_quotes() -> None:
    assert parse_follow_up('Query: "Daniel Bernoulli academy"\nmore') == "Daniel Bernoulli academy"
    assert parse_follow_up("\n  \nBasel academy teacher") == "Basel academy teacher"
    assert parse_follow_up("Who taught there? Query: Basel academy") == "Who taught there?"
    assert parse_follow_up("  \n") == ""
    assert parse_follow_up('Query: ""') == ""


def test_the_second_round_keeps_the_first_names_and_adds_the_querys() -> None:
    assert follow_up_mentions(["Euler"], "Daniel Bernoulli at the Basel academy") == [
        "Euler", "Daniel Bernoulli", "Basel"]
    # A name already looked up is not looked up twice, whatever its case.
    assert follow_up_mentions(["euler", "Basel"], "Euler taught in Basel") == ["euler", "Basel"]
    assert follow_up_mentions([], "basel academy") == []


def test_passages_are_numbered_with_their_titles_and_cut() -> None:
    lines = numbered_passages([PASSAGES["c1"], {"text": "x " * 1000}]).splitlines()
    assert lines[0] == "[1] Euler: Euler studied with Johann Bernoulli."
    assert lines[1].startswith("[2] x x") and len(lines[1]) <= 4 + 700


async def test_a_passage_found_through_the_follow_up_comes_after_the_first_two(
    tmp_path: Path,
) -> None:
    services = fake_services(ROWS, [(FOLLOW_UP_RULE, "Query: Daniel Bernoulli academy")],
                             tmp_path)
    query = make_query(services.settings, QUESTION, mentions=["Euler"])
    hops = HopsSearch(services)
    assert await hops.rank_documents(query, 3) == ["d1", "d2", "d4"]
    prompt = services.chat.calls[0].prompt
    assert QUESTION in prompt and "[1] Euler: Euler studied with Johann Bernoulli." in prompt
    # The second retrieval asks with the question and the follow-up together.
    words = services.store.params_of("query/search/search_chunks_by_fulltext")[-1]["query"]
    assert "academy" in words and "teacher" in words
    without = query.with_search(hops={"follow_up": False})
    assert await hops.rank_documents(without, 3) == ["d1", "d2"]
    first = query.with_search(hops={"follow_up_keep": 0, "follow_up_insert": 1})
    assert await hops.rank_documents(first, 3) == ["d4", "d1", "d2"]


async def test_the_users_names_stay_in_the_second_rounds_look_up(tmp_path: Path) -> None:
    services = fake_services(ROWS, [(FOLLOW_UP_RULE, "Daniel Bernoulli academy")], tmp_path)
    # Names the question does not spell as capitalised phrases (a prepared NER list).
    query = make_query(services.settings, QUESTION, mentions=["Leonhard Euler"])
    await HopsSearch(services).rank_documents(query, 3)
    rounds = services.store.params_of("query/search/search_entities_by_vector")
    looked_up = [[row["text"] for row in params["mentions"]] for params in rounds]
    assert looked_up == [["Leonhard Euler"], ["Leonhard Euler", "Daniel Bernoulli"]]


async def test_the_context_shows_the_follow_up_query(tmp_path: Path) -> None:
    services = fake_services(ROWS, [(FOLLOW_UP_RULE, "Daniel Bernoulli academy")], tmp_path)
    query = make_query(services.settings, QUESTION, mentions=["Euler"])
    context = await HopsSearch(services).build_context(query)
    assert context.sources["Follow-up"] == [{"query": "Daniel Bernoulli academy"}]
    # The first final_k (2) passages, then those the follow-up placed (the next hop's).
    assert [row["chunk_id"] for row in context.sources["Sources"]] == ["c1", "c2", "c4", "c3"]
    # Each passage's text is read once: the answer reuses those the follow-up read.
    read = [i for params in services.store.params_of("query/chunks_by_ids") for i in params["ids"]]
    assert sorted(read) == sorted(set(read)) and {"c1", "c2", "c4", "c3"} <= set(read)
    one = query.with_search(hops={"follow_up_keep": 1, "follow_up_insert": 1})
    shown = (await HopsSearch(services).build_context(one)).sources["Sources"]
    assert [row["chunk_id"] for row in shown] == ["c1", "c4"]


@pytest.mark.parametrize("reply", ["", "  \n", 'Query: ""'])
async def test_an_unusable_follow_up_reply_keeps_the_order(tmp_path: Path, reply: str) -> None:
    services = fake_services(ROWS, [(FOLLOW_UP_RULE, reply)], tmp_path)
    query = make_query(services.settings, QUESTION, mentions=["Euler"],
                       hops={"follow_up_keep": 1})
    context = await HopsSearch(services).build_context(query)
    assert services.chat.calls, "the follow-up was not asked"
    assert [row["chunk_id"] for row in context.sources["Sources"]] == ["c1", "c2"]
    assert "The follow-up reply held no query, ranked without it." in context.notes


async def test_a_failed_follow_up_call_keeps_the_order_with_a_note(tmp_path: Path) -> None:
    def refuse(_prompt: str) -> str:
        raise TimeoutError("no reply")

    services = fake_services(ROWS, [(FOLLOW_UP_RULE, refuse)], tmp_path)
    once = services.settings.llm.model_copy(update={"max_retries": 0})  # no waits between tries
    services.llm = LLMCaller(services.chat, once, None, no_cache=True)
    query = make_query(services.settings, QUESTION, mentions=["Euler"],
                       hops={"follow_up_keep": 1})
    context = await HopsSearch(services).build_context(query)
    assert [row["chunk_id"] for row in context.sources["Sources"]] == ["c1", "c2"]
    assert any(note.startswith("The follow-up call failed") for note in context.notes)


async def test_ranking_more_documents_asks_the_follow_up_once(tmp_path: Path) -> None:
    services = fake_services(ROWS, [(FOLLOW_UP_RULE, "Daniel Bernoulli academy")], tmp_path)
    query = make_query(services.settings, QUESTION, mentions=["Euler"])
    # Four documents wanted, three exist: the ranking is asked again for more passages.
    assert await HopsSearch(services).rank_documents(query, 4) == ["d1", "d2", "d4"]
    assert len(services.store.params_of("query/hops/score_chunks")) > 2  # rounds ran again
    assert [FOLLOW_UP_RULE in call.prompt for call in services.chat.calls] == [True]
