"""DRIFT against canned rows and a fake LLM: budgets, dedup, citations, fallback, ranking."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.llm.testing import Rule
from graphrag_neo4j.llm.tokens.counting import count_tokens
from graphrag_neo4j.query.answers.evidence import evidence_params
from graphrag_neo4j.query.answers.run import retrieve_only, run_query
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.context import SearchContext
from graphrag_neo4j.query.drift.search import (
    CITATIONS_DROPPED,
    NO_REPORTS,
    NOTHING_PRIMED,
    DriftRun,
    DriftSearch,
)
from graphrag_neo4j.query.drift.steps import (
    FollowUpQueue,
    Step,
    normalise,
    parse_step,
    reduce_context,
)
from graphrag_neo4j.query.local.search import LocalSearch
from tests.unit.query.fakes import FakeServices, fake_services
from tests.unit.query.test_methods import LOCAL_ROW, local_rows

PRIMER = "You start a search through a collection"
FOLLOW_UP = "answering one follow-up"
REDUCE = "A search first read community reports"
LOCAL_ANSWER = "graph search found"
REPORTS = [
    {"id": "k1", "level": 0, "title": "Scrooge's firm", "summary": "A counting-house.",
     "full_content": "Scrooge and Marley's counting-house employs Bob Cratchit.", "rank": 8.0,
     "score": 0.9},
    {"id": "k2", "level": 0, "title": "Christmas", "summary": "The season.",
     "full_content": "Fred invites Scrooge to dinner.", "rank": 5.0, "score": 0.7},
]
# Follow-up -> (score of its answer, the follow-ups it raises).
FOLLOW_UPS: dict[str, tuple[int, list[str]]] = {
    "Who is Bob Cratchit?": (90, ["What does Bob earn?", "Where is the counting-house?"]),
    "What is Marley's ghost?": (20, ["When did Marley die?"]),
}


def primer_reply(score: int) -> str:
    return json.dumps({"answer": "Scrooge runs a counting-house [Data: Reports (1)].",
                       "score": score,
                       "follow_ups": ["Who is Bob Cratchit?", "who is  BOB cratchit",
                                      "What is Marley's ghost?", "Where is the counting-house?"]})


def follow_up_reply(prompt: str) -> str:
    asked = prompt.split("-----Follow-up question-----\n")[1].split("\n")[0]
    score, raised = FOLLOW_UPS.get(asked, (10, ["Who is Bob Cratchit?"]))
    return json.dumps({"answer": f"About {asked}", "score": score, "follow_ups": raised})


# What local search reads besides its retrieval query (fulltext seeds, candidate passages): here
# nothing, so each follow-up's context is the canned retrieval row.
LOCAL_READS: dict[str, list[dict[str, Any]]] = {
    "query/search/search_entities_by_fulltext": [], "query/search/search_chunks_by_vector": [],
    "query/search/search_chunks_by_fulltext": [], **local_rows(LOCAL_ROW)}


def drift_services(tmp: Path, reports: list[dict[str, Any]], rules: list[Rule]) -> FakeServices:
    rows = {"query/search/search_communities_by_vector": reports, **LOCAL_READS}
    return fake_services(rows, rules, tmp)


def drift_over(services: FakeServices) -> DriftSearch:
    return DriftSearch(services)


def asked_follow_ups(services: FakeServices) -> list[str]:
    return [call.prompt.split("-----Follow-up question-----\n")[1].split("\n")[0]
            for call in services.chat.calls if FOLLOW_UP in call.prompt]


REDUCED = ("Bob is the clerk [Data: Reports (1); Entities (1); Sources (2, 7)]."
           " Fred [Data: Reports (9)].")


async def test_calls_per_stage_match_the_budgets_and_follow_ups_are_deduplicated(
    tmp_path: Path,
) -> None:
    services = drift_services(tmp_path, REPORTS, [
        (PRIMER, primer_reply(60)), (FOLLOW_UP, follow_up_reply), (REDUCE, REDUCED)])
    pieces: list[str] = []
    query = make_query(services.settings, "How does Scrooge treat his clerk?",
                       drift={"k_followups": 2, "depth": 2}, on_token=pieces.append)
    answer = await run_query(services, drift_over(services), query)
    stages = services.llm.usage.stages()
    assert {name: usage.calls for name, usage in stages.items()} == {
        "drift_primer": 1, "drift_followup": 4, "drift_reduce": 1}
    # Round 1: the primer's first two (its duplicate spelling dropped); round 2: the two raised
    # by the best answer (90), not Marley's (20); never the same question twice.
    in_order = [finding["question"] for finding in answer.sources["Findings"]][1:]
    assert in_order == ["Who is Bob Cratchit?", "What is Marley's ghost?",
                        "Where is the counting-house?", "What does Bob earn?"]
    assert sorted(asked_follow_ups(services)) == sorted(in_order)
    # Round 1 may raise two new follow-ups; round 2 is the last, so it is asked for none.
    wanted = [call.prompt.split("Write up to ")[1].split(" ")[0]
              for call in services.chat.calls if FOLLOW_UP in call.prompt]
    assert wanted == ["2", "2", "0", "0"]
    reduce_prompt = services.chat.calls[-1].prompt
    assert reduce_prompt.index("score 90. Q: Who is Bob") < reduce_prompt.index("score 60.")
    assert "[Data: Reports (1)]" not in reduce_prompt.split("-----Findings-----")[1].split("\n")[1]
    # The stream is grounded as the answer is: the invented ids never reach the reader.
    assert "".join(pieces) == answer.text != REDUCED and answer.method == "drift"
    assert answer.llm_calls == 6


async def test_the_answer_cites_only_rows_of_its_context(tmp_path: Path) -> None:
    services = drift_services(tmp_path, REPORTS, [
        (PRIMER, primer_reply(60)), (FOLLOW_UP, follow_up_reply), (REDUCE, REDUCED)])
    query = make_query(services.settings, "How does Scrooge treat his clerk?",
                       drift={"depth": 1})
    answer = await run_query(services, drift_over(services), query)
    assert answer.text == "Bob is the clerk [Data: Reports (1); Entities (1); Sources (2)]. Fred."
    assert answer.note_texts() == [CITATIONS_DROPPED]
    # The local contexts' rows are merged once each; the primer's reports come first.
    assert [row["id"] for row in answer.sources["Sources"]] == ["c9", "c8"]
    assert [row["id"] for row in answer.sources["Reports"]][:2] == ["k1", "k2"]
    assert [row["ref"] for row in answer.sources["Entities"]] == [1]
    params = evidence_params(answer)
    assert params["chunk_ids"] == ["c9", "c8"] and params["community_ids"][:2] == ["k1", "k2"]
    assert [f["score"] for f in answer.sources["Findings"]] == [60, 90, 20, 10]


async def test_no_community_report_falls_back_to_local_search_and_says_so(tmp_path: Path) -> None:
    services = drift_services(tmp_path, [], [(LOCAL_ANSWER, "Bob Cratchit.")])
    answer = await run_query(services, drift_over(services),
                             make_query(services.settings, "Who is the clerk?"))
    assert answer.text == "Bob Cratchit." and answer.method == "drift"
    assert answer.note_texts() == [NO_REPORTS] and answer.llm_calls == 1
    assert len(answer.sources["Sources"]) == 2


async def test_a_primer_scoring_zero_falls_back_to_local_search(tmp_path: Path) -> None:
    services = drift_services(tmp_path, REPORTS, [
        (PRIMER, primer_reply(0)), (LOCAL_ANSWER, "Bob Cratchit.")])
    answer = await run_query(services, drift_over(services),
                             make_query(services.settings, "Who is the clerk?"))
    assert answer.note_texts() == [NOTHING_PRIMED] and answer.llm_calls == 2
    assert not asked_follow_ups(services)


async def test_hyde_embeds_a_written_passage_and_costs_one_call(tmp_path: Path) -> None:
    services = drift_services(tmp_path, REPORTS, [
        ("could appear in a document", "Bob Cratchit is Scrooge's underpaid clerk."),
        (PRIMER, primer_reply(0)), (LOCAL_ANSWER, "Bob Cratchit.")])
    plain = make_query(services.settings, "Who is the clerk?")
    await run_query(services, drift_over(services), plain)
    await run_query(services, drift_over(services), plain.with_search(drift={"hyde": True}))
    reads = services.store.params_of("query/search/search_communities_by_vector")
    vectors = [params["vector"] for params in reads]
    assert vectors[0] != vectors[1]
    assert services.llm.usage.stages()["drift_hyde"].calls == 1


async def test_retrieval_and_ranking_use_the_follow_ups_local_contexts(tmp_path: Path) -> None:
    services = drift_services(tmp_path, REPORTS, [
        (PRIMER, primer_reply(60)), (FOLLOW_UP, follow_up_reply)])
    drift = drift_over(services)
    query = make_query(services.settings, "Who is the clerk?",
                       drift={"depth": 1, "k_followups": 2})
    context = await retrieve_only(services, "drift", drift, query)
    assert context.text == "" and context.llm_calls == 3  # primer + two follow-ups, no reduce
    assert context.context.startswith("-----Findings-----\n(1) score 90.")
    assert await drift.rank_documents(query, 5) == ["d9", "d8"]
    assert drift.needs_llm and drift.streams and drift.ranks_documents


def test_closing_drift_closes_the_local_search_of_its_follow_ups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drift = DriftSearch(drift_services(tmp_path, REPORTS, []))
    closed: list[LocalSearch] = []
    local = drift.local
    monkeypatch.setattr(local, "close", lambda: closed.append(local))
    drift.close()
    assert closed == [local] and drift._local is None
    drift.close()  # nothing left to close
    assert closed == [local]


def test_a_broken_reply_is_an_empty_step_and_questions_normalise() -> None:
    assert parse_step("no json here", "Q?", 1) == Step("Q?", "", 0, (), 1)
    step = parse_step('{"answer": "", "score": 80, "follow_ups": ["A?"]}', "Q?", 0)
    assert step.score == 0  # no answer, no confidence
    assert normalise("  Who is BOB, Cratchit?? ") == normalise("who is bob cratchit") != ""


def test_a_primer_without_follow_ups_sends_the_question_itself_to_local_search() -> None:
    queue = FollowUpQueue.after_primer("Who is the clerk?", Step("Who is the clerk?", "Bob", 50,
                                                                 ("who is the CLERK",), 0))
    assert [f.question for f in queue.take(3)] == ["Who is the clerk?"]
    assert queue.duplicates == 1 and queue.take(3) == []


def test_the_reduce_context_keeps_within_its_budget_best_context_first() -> None:
    rows = [{"id": f"c{i}", "document_id": f"d{i}", "text": "Scrooge counts coins. " * 20}
            for i in range(30)]
    best = SearchContext("", {"Sources": rows[:15]}, ranked_document_ids=["d0"])
    worse = SearchContext("", {"Sources": rows[10:]}, ranked_document_ids=["d10"])
    steps = [Step("Q?", "An answer.", 50, (), 0), Step("Useless?", "Nothing.", 0, (), 1)]
    context = reduce_context(steps, REPORTS, [best, worse], 800)
    assert count_tokens(context.text) <= 800
    assert "Useless?" not in context.text  # a step scoring 0 is no finding
    kept = [row["id"] for row in context.sources["Sources"]]
    assert kept and kept == [f"c{i}" for i in range(len(kept))]  # best context's rows first, once
    assert context.ranked_document_ids == ["d0", "d10"]


def test_the_reduce_reads_only_helpful_follow_ups_ranking_keeps_them_all() -> None:
    unhelpful, helpful = SearchContext("a"), SearchContext("b")
    run = DriftRun(steps=[Step("Q?", "A.", 50, (), 0), Step("X?", "", 0, (), 1),
                          Step("Y?", "Yes.", 30, (), 1)], contexts=[unhelpful, helpful])
    assert run.ranked_contexts(helpful_only=True) == [helpful]
    assert run.ranked_contexts(helpful_only=False) == [helpful, unhelpful]


def test_the_reduce_shows_relations_as_facts_citing_its_renumbered_passages() -> None:
    first = SearchContext("", {
        "Sources": [{"id": "c1", "document_id": "d1", "text": "Fred visits."}],
        "Relationships": [{"id": "r1", "source": "Fred", "predicate": "nephew of",
                           "target": "Scrooge", "description": "", "chunk_ids": ["c2"]}]})
    second = SearchContext("", {
        "Sources": [{"id": "c2", "document_id": "d2", "text": "Fred is Scrooge's nephew."}]})
    context = reduce_context([Step("Q?", "A.", 50, (), 0)], [], [first, second], 2000)
    # c2 is the second passage once the follow-ups' passages are merged: the fact cites row 2.
    assert "(1) Fred nephew of Scrooge [Data: Sources (2)]" in context.text
    assert context.text.index("-----Relationships-----") < context.text.index("-----Sources-----")
    assert [row["ref"] for row in context.sources["Relationships"]] == [1]
