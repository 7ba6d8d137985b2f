"""The four query methods against canned store rows and fake models (no server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.llm.testing import FakeEmbeddings
from graphrag_neo4j.query.answers.run import retrieve_only, run_query
from graphrag_neo4j.query.base import QueryMethod, make_query
from graphrag_neo4j.query.global_search.points import CITED_FOR_THE_MODEL
from graphrag_neo4j.query.global_search.search import NOTHING_RELEVANT, GlobalSearch
from graphrag_neo4j.query.hops.search import HopsSearch
from graphrag_neo4j.query.local.search import ENTITY_INDEX, LocalSearch
from graphrag_neo4j.query.retrieval.naive import NaiveSearch
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import renamed_setting_line
from tests.unit.query.fakes import EULER_SUBGRAPH, WRITTEN_LEVEL, Canned, Row, fake_services

PASSAGES = [
    {"chunk_id": "c1", "document_id": "d1", "title": "Euler", "text": "Euler studied with Johann.",
     "score": 0.9},
    {"chunk_id": "c2", "document_id": "d2", "title": "Daniel", "text": "Daniel was Johann's son.",
     "score": 0.8},
    {"chunk_id": "c3", "document_id": "d1", "title": "Euler", "text": "Euler moved to Berlin.",
     "score": 0.7},
]


async def test_naive_answers_from_the_nearest_passages_and_streams(tmp_path: Path) -> None:
    services = fake_services(
        {
            "query/search/search_chunks_by_vector": PASSAGES,
            "query/search/search_chunks_by_fulltext": [],
        },
        [("similarity search found", "Johann taught Euler [Data: Sources (1)].")],
        tmp_path,
    )
    pieces: list[str] = []
    query = make_query(services.settings, "Who taught Euler?", on_token=pieces.append,
                       naive={"top_k": 2}, hybrid={"enabled": True})
    answer = await run_query(services, NaiveSearch(services), query)
    assert answer.text == "Johann taught Euler [Data: Sources (1)]."
    assert "".join(pieces) == answer.text
    assert [row["chunk_id"] for row in answer.sources["Sources"]] == ["c1", "c2"]
    assert (
        services.store.params_of("query/search/search_chunks_by_fulltext")[0]["query"]
        == "taught euler"
    )
    assert answer.llm_calls == 1 and answer.prompt_tokens > 0
    prompt = services.chat.calls[0].prompt
    assert "1|Euler|Euler studied with Johann." in prompt and "Who taught Euler?" in prompt


async def test_an_old_option_name_works_and_the_answer_says_so_first(tmp_path: Path) -> None:
    services = fake_services(
        {
            "query/search/search_chunks_by_vector": PASSAGES,
            "query/search/search_chunks_by_fulltext": [],
        },
        [("similarity search found", "Johann taught Euler [Data: Sources (1)].")],
        tmp_path,
    )
    query = make_query(services.settings, "Who taught Euler?", naive_top_k=1)
    line = renamed_setting_line("naive_top_k", "naive.top_k")
    answer = await run_query(services, NaiveSearch(services), query)
    assert [row["chunk_id"] for row in answer.sources["Sources"]] == ["c1"]
    assert answer.notes[0].text == line
    context = await retrieve_only(services, "naive", NaiveSearch(services), query)
    assert context.notes[0].text == line and len(context.sources["Sources"]) == 1


async def test_naive_ranks_documents_without_an_answer_call(tmp_path: Path) -> None:
    services = fake_services({"query/search/search_chunks_by_vector": PASSAGES}, [], tmp_path)
    query = make_query(services.settings, "Who taught Euler?",
                       hybrid={"enabled": False})
    assert await NaiveSearch(services).rank_documents(query, 5) == ["d1", "d2"]
    assert services.store.params_of("query/search/search_chunks_by_vector")[0]["k"] == 5


async def test_naive_asks_for_more_passages_until_k_documents(tmp_path: Path) -> None:
    # c1 and c3 are both d1's: the two nearest passages name one document.
    ranked = [PASSAGES[0], PASSAGES[2], PASSAGES[1]]
    services = fake_services(
        {"query/search/search_chunks_by_vector": lambda params: ranked[: params["k"]]}, [],
        tmp_path)
    query = make_query(services.settings, "Who taught Euler?", hybrid={"enabled": False})
    assert await NaiveSearch(services).rank_documents(query, 2) == ["d1", "d2"]
    asked = [p["k"] for p in services.store.params_of("query/search/search_chunks_by_vector")]
    assert asked == [2, 4]


def local_rows(metadata: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Local search's own reads: the entity index (sized for FakeEmbeddings) and the one row of
    its retrieval statement, whose metadata is `metadata`."""
    index = {"name": ENTITY_INDEX, "dimensions": FakeEmbeddings().dimension}
    return {
        "database/embedder/show_vector_indexes": [index],
        "query/local_retrieval": [{"text": "", "score": 0.9, "metadata": metadata}],
        # Hops' reads, which rank local's passages: no entity or fact near the question
        # here, so the nearest passages rank.
        "query/search/search_entities_by_vector": [],
        "query/search/search_relations_by_vector": [],
        "query/hops/entity_neighbours": [],
        "query/hops/relations_around_entities": [],
        "query/hops/chunk_relation_scores": [],
        "query/hops/score_chunks": [
            {
                "chunk_id": row["chunk_id"],
                "document_id": row["document_id"],
                "cooccurrence_relations": False,
                "score": row["score"],
            }
            for row in PASSAGES
        ],
        "query/hops/head_entities": [],
        "query/hops/pages_titled": [],
        "query/hops/chunk_bridge_entities": [],
        "query/chunks_by_ids": [],
    }


LOCAL_ROW = {
    "entities": [{"id": "e1", "name": "Scrooge", "type": "person",
                  "description": "A miser."}],
    "inside_rels": [{"id": "r1", "source": "Scrooge", "predicate": "employs",
                     "target": "Bob Cratchit", "description": "His clerk.", "weight": 2.0,
                     "chunk_ids": ["c8", "gone"]}],
    "outside_rels": [],
    "reports": [{"id": "k1", "title": "Counting-house", "summary": "Scrooge and his clerk."}],
    "chunks": [{"id": "c9", "document_id": "d9", "text": "Bob Cratchit copied letters."},
               {"id": "c8", "document_id": "d8", "text": "The fire was small."}],
}


async def test_local_packs_every_table_and_answers(tmp_path: Path) -> None:
    rows: dict[str, list[dict[str, Any]]] = {
        "query/search/search_entities_by_fulltext": [
            {"mention": "Scrooge", "id": "e1", "name": "Scrooge", "score": 3.0}
        ],
        "query/search/search_chunks_by_vector": PASSAGES,
        "query/search/search_chunks_by_fulltext": [],
        **local_rows(LOCAL_ROW),
    }
    services = fake_services(rows, [("graph search found", "Bob Cratchit is his clerk.")],
                             tmp_path)
    search = LocalSearch(services)
    query = make_query(services.settings, "Who is Scrooge's clerk?",
                       local={"top_chunks": "3"}, hybrid={"enabled": True})
    answer = await run_query(services, search, query)
    assert answer.text == "Bob Cratchit is his clerk."
    assert {name: len(rows) for name, rows in answer.sources.items()} == {
        "Entities": 1, "Relationships": 1, "Reports": 1, "Sources": 2}
    params = services.store.params_of("query/local_retrieval")
    # The string override was validated to an int: 3 passages, the nearest as no walk ran.
    assert params[0]["chunk_ids"] == ["c1", "c2", "c3"]
    assert params[0]["seed_ids"] == ["e1"]  # the named entity joins the vector hits
    assert params[0]["top_k"] == services.settings.search.local.top_k_entities
    assert params[0]["query_vector"] == await services.embedder.embed_query(query.question)
    # The nearest passages too, with the scores their search gave them.
    assert params[0]["chunk_scores"] == {"c1": 0.9, "c2": 0.8, "c3": 0.7}
    searched = [p["texts"][0]["query"] for p in
                services.store.params_of("query/search/search_entities_by_fulltext")]
    # Its mention (for local's seeds, and for hops' entity hits, which rank the passages),
    # then the whole question.
    assert sorted(searched) == ["scrooge", "scrooge", "scrooge clerk"]
    prompt = services.chat.calls[0].prompt
    # The relation is a numbered fact citing the shown passage that states it (c8 is Sources
    # row 2; a chunk not shown is not cited), and the facts come before the passages.
    assert "(1) Scrooge employs Bob Cratchit: His clerk. [Data: Sources (2)]" in prompt
    assert prompt.index("-----Relationships-----") < prompt.index("-----Sources-----")
    # Documents come from local's passage ranking (not only those its token budget shows):
    # the nearest passages here, c1 and c3 both d1's.
    assert await search.rank_documents(query, 2) == ["d1", "d2"]
    assert len(services.store.params_of("query/local_retrieval")) == 1  # read no context
    checks = services.store.params_of("database/embedder/show_vector_indexes")
    assert len(checks) == 1  # checked once


@pytest.mark.parametrize(("indexes", "problem"), [
    ([], "index some documents first"),
    ([{"name": ENTITY_INDEX, "dimensions": 8}], "holds 8-dimension vectors"),
])
async def test_local_refuses_a_graph_its_vectors_cannot_search(
    tmp_path: Path, indexes: list[dict[str, Any]], problem: str
) -> None:
    rows = {
        **local_rows(LOCAL_ROW),
        "database/embedder/show_vector_indexes": indexes,
        "query/search/search_entities_by_fulltext": [],
        "query/search/search_chunks_by_vector": [],
    }
    services = fake_services(rows, [], tmp_path)
    query = make_query(services.settings, "Who is Scrooge's clerk?", hybrid=False)
    with pytest.raises(InputError, match=problem):
        await LocalSearch(services).build_context(query)
    assert services.store.params_of("query/local_retrieval") == []


REPORTS = [
    {"id": "k1", "level": 1, "title": "Bernoulli family", "summary": "Mathematicians.",
     "full_content": "Johann taught Euler.", "rank": 8.0},
    {"id": "k2", "level": 1, "title": "Berlin", "summary": "A city.",
     "full_content": "Euler moved to Berlin.", "rank": 2.0},
]


def _map_reply(prompt: str) -> str:
    score = 90 if "Johann taught Euler." in prompt else 0
    return json.dumps({"points": [{"description": "Johann taught Euler [Data: Reports (1)]",
                                   "score": score}]})


def _levels_0_and_1(params: dict[str, Any]) -> list[Row]:
    """Level status rows of a graph with communities at levels 0 and 1 only."""
    return WRITTEN_LEVEL if params["level"] in (0, 1) else [
        {"communities": 0, "waiting": False, "total": 3}]


async def test_global_maps_reports_then_reduces(tmp_path: Path) -> None:
    services = fake_services(
        {
            "query/communities/community_levels": [
                {"level": 0, "communities": 1},
                {"level": 1, "communities": 2},
            ],
            "query/communities/community_reports_at_level": REPORTS,
            "query/communities/community_level_status": _levels_0_and_1,
        },
        [("community\nreports", _map_reply), ("Several analysts", "Johann taught Euler.")],
        tmp_path,
    )
    query = make_query(services.settings, "Who taught Euler?", level=2)
    answer = await run_query(services, GlobalSearch(services), query)
    # The reduce reply cited nothing: the report its only point rests on is cited for it.
    assert answer.text == "Johann taught Euler. [Data: Reports (1)]"
    assert answer.note_texts() == ["Level 2 has no reports; using 1.", CITED_FOR_THE_MODEL]
    assert answer.selection is not None and answer.selection.level == 1
    assert answer.selection.map_calls == 1 and answer.llm_calls == 2
    assert [row["ref"] for row in answer.sources["Reports"]] == [1, 2]
    assert answer.sources["Points"][0]["score"] == 90


async def test_global_says_nothing_relevant_without_scored_points(tmp_path: Path) -> None:
    services = fake_services(
        {"query/communities/community_levels": [{"level": 0, "communities": 2}],
         "query/communities/community_reports_at_level": REPORTS[1:],
         "query/communities/community_level_status": WRITTEN_LEVEL},
        [("community\nreports", _map_reply)],
        tmp_path,
    )
    answer = await run_query(services, GlobalSearch(services),
                             make_query(services.settings, "Who taught Euler?", level=0))
    assert answer.text == NOTHING_RELEVANT and answer.llm_calls == 1


async def test_global_context_is_the_common_context_type(tmp_path: Path) -> None:
    services = fake_services(
        {"query/communities/community_levels": [{"level": 0, "communities": 2}],
         "query/communities/community_reports_at_level": REPORTS,
         "query/communities/community_level_status": WRITTEN_LEVEL},
        [],
        tmp_path,
    )
    query = make_query(services.settings, "Who taught Euler?", level=0)
    answer = await retrieve_only(services, "global", GlobalSearch(services), query)
    assert answer.text == "" and answer.llm_calls == 0
    assert "1|Bernoulli family|Johann taught Euler." in answer.context
    assert len(answer.sources["Reports"]) == 2


HOPS_ROWS: dict[str, Canned] = {
    **EULER_SUBGRAPH,
    "query/search/search_chunks_by_vector": PASSAGES[2:],
    "query/hops/score_chunks": [
        {"chunk_id": "c1", "document_id": "d1", "cooccurrence_relations": False, "score": 0.6},
        {"chunk_id": "c2", "document_id": "d2", "cooccurrence_relations": False, "score": 0.5},
        {"chunk_id": "c3", "document_id": "d1", "cooccurrence_relations": False, "score": 0.4}],
    "query/chunks_by_ids": PASSAGES,
    "query/search/search_chunks_by_fulltext": [],
}


async def test_hops_without_llm_ranks_passages_by_relations(tmp_path: Path) -> None:
    services = fake_services(HOPS_ROWS, [("multi-hop search", "Daniel Bernoulli.")], tmp_path)
    query = make_query(services.settings, "Who is the son of Euler's teacher?",
                       mentions=["Euler"], hops={"rerank": False, "follow_up": False, "final_k": 2})
    answer = await run_query(services, HopsSearch(services), query)
    assert answer.text == "Daniel Bernoulli." and answer.llm_calls == 1  # the answer only
    facts = [row["fact"] for row in answer.sources["Relationships"]]
    assert facts[0] == "Johann Bernoulli taught Leonhard Euler"
    assert [row["text"] for row in answer.sources["Mentions"]] == ["Euler"]
    assert len(answer.sources["Sources"]) == 2
    assert answer.context.startswith("-----Facts-----\n(1) Johann Bernoulli taught")
    ranked = await HopsSearch(services).rank_documents(query, 2)
    assert ranked == ["d1", "d2"]


@pytest.mark.parametrize("reply", [
    "Fact [2] says who the son is, so [2] matters.",  # a thought citing facts, no list
    "I cannot tell.", '{"useful_relationships": "none"}'])
async def test_an_unusable_rerank_reply_keeps_the_embedding_order(
    tmp_path: Path, reply: str
) -> None:
    services = fake_services(HOPS_ROWS, [("You pick facts", reply)], tmp_path)
    question = "Who is the son of Euler's teacher?"
    plain = make_query(services.settings, question, mentions=["Euler"],
                       hops={"rerank": False, "follow_up": False})
    reranked = plain.with_search(hops={"rerank": True})
    before = await HopsSearch(services).build_context(plain)
    after = await HopsSearch(services).build_context(reranked)
    assert services.chat.calls, "the reranker was not asked"
    assert after.ranked_document_ids == before.ranked_document_ids == ["d1", "d2"]
    assert after.sources["Relationships"] == before.sources["Relationships"]
    assert "The rerank reply held no list of facts, ranked by embeddings." in after.notes


def test_a_method_capability_tells_the_cli_whether_it_streams(tmp_path: Path) -> None:
    services = fake_services({}, [], tmp_path)
    methods: list[QueryMethod] = [
        LocalSearch(services), GlobalSearch(services), HopsSearch(services), NaiveSearch(services)
    ]
    assert all(method.streams for method in methods)
    assert [m.ranks_documents for m in methods] == [True, False, True, True]
    # Hops' follow-up call is on by default (its NER and rerank only with hops.rerank).
    assert [m.needs_llm for m in methods] == [False, False, True, False]


async def test_hops_lifts_passages_naming_a_bridge_and_weighs_fast_relations_apart(
    tmp_path: Path,
) -> None:
    # c3's document has co-occurrence relations (fast): they count with
    # hops.fast_relation_weight (0);
    # c2 names "Daniel Bernoulli", a bridge named by the nearest passage (c3) but not asked.
    rows = {
        **HOPS_ROWS,
        "query/search/search_chunks_by_vector": [PASSAGES[2]],
        "query/hops/relations_around_entities": [
            {"id": "r3", "subject": "Euler", "predicate": "co-occurs with", "object": "Berlin",
             "chunk_ids": ["c1"], "score": 0.9}],
        "query/hops/score_chunks": [
            {"chunk_id": "c1", "document_id": "d1", "cooccurrence_relations": True, "score": 0.3},
            {"chunk_id": "c2", "document_id": "d2", "cooccurrence_relations": True, "score": 0.2},
            {"chunk_id": "c3", "document_id": "d3", "cooccurrence_relations": True, "score": 0.5}],
        "query/hops/head_entities": [
            {"name": "Daniel Bernoulli", "passages": 2, "chunk_ids": ["c2", "c3"]},
            {"name": "Euler", "passages": 1, "chunk_ids": ["c1"]}],  # asked: no bridge
        "query/hops/pages_titled": [],
    }
    services = fake_services(rows, [], tmp_path)
    query = make_query(services.settings, "Where did Euler work?", mentions=["Euler"],
                       hops={"rerank": False, "follow_up": False})
    assert await HopsSearch(services).rank_documents(query, 3) == ["d3", "d2", "d1"]
    plain = query.with_search(hops={"bridge_weight": 0.0, "fast_relation_weight": 0.75})
    assert await HopsSearch(services).rank_documents(plain, 3) == ["d1", "d3", "d2"]


async def test_hops_lifts_the_page_about_a_bridge_too_common_to_count_as_one(
    tmp_path: Path,
) -> None:
    # c3 (nearest) names Daniel Bernoulli, named in more passages than a bridge may be; c2 is
    # the page about him (its title): the page still follows the nearest passage.
    rows = {
        **HOPS_ROWS,
        "query/search/search_chunks_by_vector": [PASSAGES[2]],
        "query/hops/relations_around_entities": [],
        "query/hops/score_chunks": [
            {"chunk_id": "c1", "document_id": "d1", "cooccurrence_relations": False, "score": 0.3},
            {"chunk_id": "c2", "document_id": "d2", "cooccurrence_relations": False, "score": 0.2},
            {"chunk_id": "c3", "document_id": "d3", "cooccurrence_relations": False, "score": 0.5}],
        "query/hops/chunk_relation_scores": [],
        # Named in more passages than hops.bridge_max_passages: no passages of its own.
        "query/hops/head_entities": [
            {"name": "Daniel Bernoulli", "passages": 60, "chunk_ids": []}],
        "query/hops/pages_titled": [{"name": "Daniel Bernoulli", "chunk_ids": ["c2"]}],
    }
    services = fake_services(rows, [], tmp_path)
    query = make_query(services.settings, "Where did Euler work?", mentions=["Euler"],
                       hops={"rerank": False, "follow_up": False}, hybrid={"enabled": False})
    assert await HopsSearch(services).rank_documents(query, 3) == ["d3", "d2", "d1"]
    assert services.store.params_of("query/hops/head_entities")[-1]["chunk_id"] == "c3"
    titles = services.store.params_of("query/hops/pages_titled")[-1]["titles"]
    assert titles == ["Bernoulli", "Daniel", "Daniel Bernoulli"]
    without = query.with_search(hops={"bridge_weight": 0.0})
    assert await HopsSearch(services).rank_documents(without, 3) == ["d3", "d1", "d2"]


async def test_hops_reads_bridges_from_the_tied_passage_whose_title_the_question_names(
    tmp_path: Path,
) -> None:
    # c1 (title "Euler") and c2 ("Daniel") tie at the top; the question names Daniel.
    tied = [{**PASSAGES[0], "score": 0.9}, {**PASSAGES[1], "score": 0.9}]
    services = fake_services({**HOPS_ROWS, "query/search/search_chunks_by_vector": tied}, [],
                             tmp_path)
    hops = HopsSearch(services)
    for question, head in [("Whose son was Daniel?", "c2"), ("Whose son was Bernoulli?", "c1")]:
        query = make_query(services.settings, question,
                           hops={"rerank": False, "follow_up": False}, hybrid={"enabled": False})
        await hops.rank_documents(query, 2)
        assert services.store.params_of("query/hops/head_entities")[-1]["chunk_id"] == head


async def test_hops_coverage_selection_lifts_a_passage_sharing_a_picked_ones_entity(
    tmp_path: Path,
) -> None:
    # Blended: c1 1.2, c2 1.025, c3 0.7 (the nearest passage's score); c1 and c3 both name a
    # rare entity the question does not, so with a bridge weight c3 follows c1.
    rows = {**HOPS_ROWS, "query/hops/chunk_bridge_entities": [
        {"chunk_id": "c1", "id": "e-academy", "name": "Prussian Academy", "passages": 2},
        {"chunk_id": "c3", "id": "e-academy", "name": "Prussian Academy", "passages": 2}]}
    services = fake_services(rows, [], tmp_path)
    query = make_query(services.settings, "Who is the son of Euler's teacher?", mentions=["Euler"],
                       hops={"rerank": False, "follow_up": False, "final_k": 2,
                             "coverage_bridge_weight": 0.0})
    hops = HopsSearch(services)
    plain = await hops.build_context(query)
    assert [row["chunk_id"] for row in plain.sources["Sources"]] == ["c1", "c2"]
    covering = query.with_search(hops={"coverage_bridge_weight": 2.0})
    context = await hops.build_context(covering)
    assert [row["chunk_id"] for row in context.sources["Sources"]] == ["c1", "c3"]


async def test_an_evidence_first_prompt_streams_the_answer_and_notes_the_evidence(
    tmp_path: Path,
) -> None:
    prompts = tmp_path / "prompts"
    (prompts / "query" / "answers").mkdir(parents=True)
    (prompts / "query" / "answers" / "naive.txt").write_text(
        "Passages a similarity search found:\n{context}\n{history}\nShape: {response_type}\n"
        "Question: {question}\nWrite Evidence:, then Answer:.\n\nEvidence:", encoding="utf-8")
    services = fake_services(
        {
            "query/search/search_chunks_by_vector": PASSAGES,
            "query/search/search_chunks_by_fulltext": [],
        },
        [
            (
                "a similarity search found",
                " Euler studied with Johann. (Sources 1)\nAnswer: Johann [Data: Sources (1)].",
            )
        ],
        tmp_path,
    )
    services.settings = services.settings.model_copy(update={"prompts_dir": prompts})
    pieces: list[str] = []
    query = make_query(services.settings, "Who taught Euler?", on_token=pieces.append)
    answer = await run_query(services, NaiveSearch(services), query)
    assert answer.text == "Johann [Data: Sources (1)]."
    assert "".join(pieces).strip() == answer.text
    assert "Evidence: Euler studied with Johann. (Sources 1)" in answer.note_texts()
