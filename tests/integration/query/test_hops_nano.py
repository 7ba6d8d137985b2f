"""The Milvus notebook's query on the nano passages: hops finds Daniel, naive does not."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.evaluation.answers import AnswerSummary, budget_overrides
from graphrag_neo4j.evaluation.gold_passages import GOLD
from graphrag_neo4j.evaluation.retrieval import EvalQuestion
from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.query.base import make_query, validated_search
from graphrag_neo4j.query.hops.retriever import HopsRetriever
from graphrag_neo4j.query.hops.search import HopsSearch
from graphrag_neo4j.query.retrieval.naive import NaiveSearch
from graphrag_neo4j.runtime.errors import InputError, ModelError
from graphrag_neo4j.settings import SearchSettings, Settings
from tests.nano_fakes import load_nano

pytestmark = pytest.mark.integration

DANIEL = "Daniel Bernoulli made major contributions to fluid dynamics, probability and statistics."
DONT_KNOW = "I don't know: the passages do not say who the son of Euler's teacher is."
# What GPT-4o chose in the notebook: the chain Euler -> teacher Johann -> his son Daniel.
USEFUL = ("was a student of Johann Bernoulli", "was the son of Johann Bernoulli")
_FACT = re.compile(r"^\[(\d+)\] (.*)$", flags=re.MULTILINE)


def rerank_like_the_notebook(prompt: str) -> str:
    """Choose, among the facts offered for the real question, the ones on the chain."""
    facts = _FACT.findall(prompt.split("Now your turn", 1)[1])
    chosen = [int(n) for phrase in USEFUL for n, text in facts if phrase in text]
    thought = "Euler's teacher was Johann Bernoulli; his son was Daniel Bernoulli."
    return json.dumps({"thought_process": thought, "useful_relationships": chosen})


def answer_from_passages(prompt: str) -> str:
    """Answer only when the son's passage is in the prompt, as GPT-4o did."""
    return DANIEL if "Daniel Bernoulli (1700" in prompt else DONT_KNOW


def notebook_llm() -> FakeChatModel:
    return FakeChatModel(rules=[
        ("List the proper names in the question", '["Euler"]'),
        ("You pick facts for answering a question", rerank_like_the_notebook),
        ("the fact still missing", "Daniel Bernoulli, son of Johann Bernoulli"),
        ("-----Question-----", answer_from_passages),
    ])


@pytest.fixture(scope="module")
def embeddings() -> MiniLMEmbeddings:
    # The real offline embedder: entity, relation and passage searches rank by meaning, as the
    # notebook's OpenAI embeddings do; a bag of words would make "Euler" a pure string match.
    return MiniLMEmbeddings()


@pytest.fixture
def rag(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path,
    embeddings: MiniLMEmbeddings,
) -> Iterator[GraphRAG]:
    query = load_nano(nano_root)["queries"][0]
    search, _ = validated_search(settings.search, {
        "hops": {"entity_top_k": query["top_k_entity_and_relation_search"],
                 "relation_top_k": query["top_k_entity_and_relation_search"],
                 "degree": query["target_degree"],
                 "final_k": query["final_top_k_passages"],
                 "rerank": True,  # the notebook reranks with the LLM
                 "rerank_keep": 0,  # and lets its choices lead
                 "follow_up": False},  # and asks no follow-up
        "naive.top_k": query["final_top_k_passages"],
        "hybrid.enabled": False,  # the notebook ranks by vectors only
    })
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache", "search": search})
    with GraphRAG(tuned, llm=notebook_llm(), embeddings=embeddings) as engine:
        engine.index_triplets(nano_root / "milvus_nano" / "nano_dataset.json")
        yield engine


def _question(nano_root: Path) -> dict[str, Any]:
    return dict(load_nano(nano_root)["queries"][0])


async def test_hops_returns_euler_then_daniel_like_the_notebook(
    rag: GraphRAG, nano_root: Path
) -> None:
    query = _question(nano_root)
    context = await HopsSearch(rag).build_context(
        make_query(rag.settings, query["query"])
    )
    expected = [f"nano_dataset-{i}" for i in query["expected_passage_ids_graph_method_in_order"]]
    assert context.ranked_document_ids == expected == ["nano_dataset-3", "nano_dataset-2"]
    assert [row["text"] for row in context.sources["Mentions"]] == ["Euler"]
    facts = [row["fact"] for row in context.sources["Relationships"]]
    assert facts == ["Leonhard Euler was a student of Johann Bernoulli",
                     "Daniel Bernoulli was the son of Johann Bernoulli"]
    assert "-----Facts-----" in context.text and "Daniel Bernoulli (1700" in context.text


async def test_a_rerank_that_keeps_the_first_passages_adds_the_sons_below_them(
    rag: GraphRAG, nano_root: Path
) -> None:
    question = _question(nano_root)["query"]
    plain = await HopsSearch(rag).build_context(
        make_query(rag.settings, question, hops={"rerank": False}))
    kept = await HopsSearch(rag).build_context(
        make_query(rag.settings, question, hops={"rerank_keep": 2}))
    assert plain.ranked_document_ids == ["nano_dataset-3", "nano_dataset-1"]  # Euler, Johann
    assert kept.ranked_document_ids == [*plain.ranked_document_ids, "nano_dataset-2"]
    assert "Daniel Bernoulli (1700" in kept.text


async def test_naive_ranks_euler_first_and_misses_daniel(rag: GraphRAG, nano_root: Path) -> None:
    query = _question(nano_root)
    context = await NaiveSearch(rag).build_context(
        make_query(rag.settings, query["query"])
    )
    assert context.ranked_document_ids[0] == "nano_dataset-3"
    assert "nano_dataset-2" not in context.ranked_document_ids
    assert len(context.sources["Sources"]) == 2


async def test_answers_follow_the_notebook(rag: GraphRAG, nano_root: Path) -> None:
    question = _question(nano_root)["query"]
    hops = await rag.aquery(question, "hops")
    naive = await rag.aquery(question, "naive")
    assert hops.text == DANIEL and hops.method == "hops"
    assert naive.text == DONT_KNOW and naive.method == "naive"
    assert hops.llm_calls == 3  # NER, rerank, answer
    assert naive.llm_calls == 1
    assert hops.prompt_tokens > 0 and hops.sources["Rerank"][0]["parsed"] is True


async def test_retrieve_only_reranks_as_the_answer_does(rag: GraphRAG, nano_root: Path) -> None:
    question = _question(nano_root)["query"]
    answer = await rag.aquery(question, "hops")
    retrieved = await rag.aretrieve(question, "hops")
    assert answer.text == DANIEL and not retrieved.text
    assert retrieved.context == answer.context
    assert retrieved.sources == answer.sources and "Rerank" in retrieved.sources


async def test_without_an_llm_hops_still_ranks_euler_first(
    rag: GraphRAG, nano_root: Path
) -> None:
    llm = rag.llm.chat_model
    assert isinstance(llm, FakeChatModel)
    calls = len(llm.calls)
    query = _question(nano_root)["query"]
    context = await HopsSearch(rag).build_context(
        make_query(rag.settings, query).with_search(hops={"rerank": False, "final_k": 4})
    )
    assert len(llm.calls) == calls, "no-rerank retrieval called the LLM"
    assert context.ranked_document_ids[0] == "nano_dataset-3"
    assert sorted(context.ranked_document_ids) == [f"nano_dataset-{i}" for i in range(4)]
    assert [row["text"] for row in context.sources["Mentions"]] == ["Euler"]


async def test_given_mentions_replace_ner(rag: GraphRAG, nano_root: Path) -> None:
    query = _question(nano_root)["query"]
    context = await HopsSearch(rag).build_context(
        make_query(rag.settings, query, mentions=["Daniel Bernoulli"])
    )
    assert [row["text"] for row in context.sources["Mentions"]] == ["Daniel Bernoulli"]
    assert context.sources["Entities"][0]["name"] == "Daniel Bernoulli"


async def test_a_failing_reranker_leaves_the_embedding_ranking_and_a_note(
    rag: GraphRAG, shared_data: Path, embeddings: MiniLMEmbeddings
) -> None:
    def crash(prompt: str) -> str:
        raise ModelError("the model process died")

    failing = FakeChatModel(rules=[("List the proper names", '["Euler"]'),
                                   ("You pick facts", crash)])
    query = _question(shared_data)["query"]
    with GraphRAG(rag.settings, llm=failing, embeddings=embeddings) as other:
        context = await HopsSearch(other).build_context(
            make_query(other.settings, query).with_search(hops={"final_k": 4})
        )
    assert context.notes == ["The rerank call failed, ranked by embeddings: the model process died"]
    assert context.ranked_document_ids[0] == "nano_dataset-3"
    assert "Rerank" not in context.sources


async def test_reciprocal_rank_hybrid_naive_finds_daniel_where_vectors_alone_do_not(
    rag: GraphRAG, nano_root: Path
) -> None:
    question = _question(nano_root)["query"]
    plain = await NaiveSearch(rag).build_context(make_query(rag.settings, question,
                                                                hybrid={"enabled": False}))
    # Reciprocal rank fusion: Daniel's passage gains by its BM25 rank. (The default fusion, by
    # score relative to each ranking's best, does not lift it on these four passages.)
    rrf = make_query(rag.settings, question, hybrid={"enabled": True, "fusion": "rrf"})
    fused = await NaiveSearch(rag).build_context(rrf)
    assert "nano_dataset-2" not in plain.ranked_document_ids
    assert fused.ranked_document_ids == ["nano_dataset-3", "nano_dataset-2"]


DANIEL_GOLD = ("Daniel Bernoulli made major contributions to fluid dynamics",)


def _euler(nano_root: Path, passages: list[str]) -> EvalQuestion:
    """The notebook's question with the given gold passages and Daniel's answer."""
    return EvalQuestion("euler", _question(nano_root)["query"], passages, DANIEL_GOLD)


async def _evaluate(
    rag: GraphRAG, methods: list[str], items: list[EvalQuestion], gold: bool = False
) -> list[AnswerSummary]:
    """`eval answers` on these questions, budget 1,500, nothing resumed or written."""
    from graphrag_neo4j.evaluation.answer_run import answer_all

    return await answer_all(rag, methods, items, budget_overrides(1500), {}, None, "key", gold)


async def test_eval_answers_scores_hops_right_and_naive_a_retrieval_miss(
    rag: GraphRAG, nano_root: Path
) -> None:
    gold = _euler(nano_root, ["nano_dataset-3", "nano_dataset-2"])
    naive, hops = await _evaluate(rag, ["naive", "hops"], [gold])
    assert hops.records[0]["right"] is True and hops.records[0]["miss"] == ""
    assert naive.records[0]["right"] is False and naive.records[0]["miss"] == "retrieval"
    shown = naive.records[0]["context_documents"]
    assert shown[0] == "nano_dataset-3" and "nano_dataset-2" not in shown
    for summary in (naive, hops):  # grounding ran and found every name in the context
        assert summary.records[0]["grounding"] == "flag"
        assert summary.records[0]["unsupported_entities"] == []


async def test_eval_answers_gold_column_reads_the_gold_passages_alone(
    rag: GraphRAG, nano_root: Path
) -> None:
    gold = _euler(nano_root, ["nano_dataset-2", "nano_dataset-3"])
    naive, reader = await _evaluate(rag, ["naive"], [gold], gold=True)
    record = reader.records[0]
    # Naive never showed Daniel's passage; the gold column shows it, in the question's order,
    # and nothing else, so the answer is right and its grounding ran as any method's.
    assert naive.records[0]["miss"] == "retrieval"
    assert record["context_documents"] == ["nano_dataset-2", "nano_dataset-3"]
    assert record["right"] is True and record["gold_in_context"] is True
    assert reader.method == GOLD
    assert record["grounding"] == "flag" and record["unsupported_entities"] == []
    absent = EvalQuestion("lost", gold.question, ["nano_dataset-9"], ("Daniel",))
    with pytest.raises(InputError, match=r"no passage of the gold document\(s\) nano_dataset-9"):
        await _evaluate(rag, [], [gold, absent], gold=True)
    # "gold" is no method of the registry: asked for by name, it is one the run cannot make
    # (the CLI refuses it in --method before the run; --gold-context adds the column).
    (named,) = await _evaluate(rag, [GOLD], [gold])
    assert named.unavailable is not None and named.records == []


async def test_retrieve_only_makes_the_calls_the_answer_makes(
    rag: GraphRAG, nano_root: Path
) -> None:
    """Without rerank and follow-up retrieval only makes no LLM call; with the rerank on it
    makes the NER and rerank calls the answer makes, with the follow-up one call more."""
    llm = rag.llm.chat_model
    assert isinstance(llm, FakeChatModel)
    calls = len(llm.calls)
    question = _question(nano_root)["query"]
    answer = await rag.aretrieve(question, "hops", hops={"rerank": False})
    assert answer.llm_calls == 0 and len(llm.calls) == calls
    assert answer.text == "" and answer.sources["Mentions"][0]["text"] == "Euler"
    reranked = await rag.aretrieve(question, "hops")
    assert reranked.llm_calls == 2 and "Rerank" in reranked.sources
    followed = await rag.aretrieve(question, "hops", hops={"rerank": False, "follow_up": True})
    assert followed.llm_calls == 1 and followed.sources["Follow-up"] == [
        {"query": "Daniel Bernoulli, son of Johann Bernoulli"}]


async def test_the_follow_up_places_its_best_new_passage_after_the_kept_ones(
    rag: GraphRAG, nano_root: Path
) -> None:
    question = _question(nano_root)["query"]
    asked = make_query(rag.settings, question).with_search(hops={
        "rerank": False, "final_k": 4, "follow_up_keep": 1, "follow_up_insert": 1})
    hops = HopsSearch(rag)
    plain = await hops.rank_documents(asked, 4)
    followed = await hops.rank_documents(asked.with_search(hops={"follow_up": True}), 4)
    # What hops ranks for the question and the reply together, on the real graph.
    again = make_query(rag.settings, f"{question} Daniel Bernoulli, son of Johann Bernoulli")
    second = await hops.rank_documents(again.with_search(hops={"rerank": False, "final_k": 4}), 4)
    best_new = next(doc for doc in second if doc != plain[0])
    assert plain.index("nano_dataset-2") > 1  # without the follow-up, out of the top 2
    assert followed[:2] == [plain[0], best_new]
    assert sorted(followed) == sorted(plain)  # the follow-up adds, never drops
    assert best_new == "nano_dataset-2"  # Daniel's passage: the second hop


def _hops_only(rag: GraphRAG, question: str, **hops: Any) -> SearchSettings:
    """Search settings for hops without its LLM calls, bridges and selection, plus `hops`."""
    return make_query(rag.settings, question).with_search(hops={
        "rerank": False, "follow_up": False, "bridge_weight": 0.0,
        "coverage_bridge_weight": 0.0, **hops}).search


async def test_a_passage_s_own_facts_score_is_its_nearest_stated_relation(
    rag: GraphRAG, nano_root: Path
) -> None:
    question = _question(nano_root)["query"]
    # Wide enough to reach every relation (the law of large numbers is three steps from
    # Euler): the candidates are then the reference.
    wide = _hops_only(rag, question, degree=2, max_candidates=1000)
    found = await HopsRetriever(rag).retrieve(question, wide, ["Euler", "the Bernoulli theorem"])
    expected: dict[str, float] = {}
    for candidate in found.candidates:
        for chunk_id in candidate.chunk_ids:
            expected[chunk_id] = max(expected.get(chunk_id, -1.0), candidate.score)
    vector = await rag.embedder.embed_query(question)
    rows = rag.store.read("query/hops/chunk_relation_scores", ids=sorted(expected),
                          embedding=vector)
    own = {row["chunk_id"]: row["score"] for row in rows}
    assert len(found.candidates) == 22 and len(expected) == 4
    assert own == pytest.approx(expected, abs=1e-6)


async def test_passages_no_candidate_reached_are_weighed_by_their_own_facts(
    rag: GraphRAG,
) -> None:
    question = "Who was Euler's teacher?"
    # One candidate relation: the other three passages are found by their text alone.
    narrow = _hops_only(rag, question, final_k=4, max_candidates=1, relation_weight=100.0)
    found = await HopsRetriever(rag).retrieve(question, narrow)
    vector = await rag.embedder.embed_query(question)
    ids = found.blended_order
    own = {row["chunk_id"]: row["score"] for row in rag.store.read(
        "query/hops/chunk_relation_scores", ids=ids, embedding=vector)}
    text = {row["chunk_id"]: row["score"] for row in rag.store.read(
        "query/hops/score_chunks", ids=ids, embedding=vector)}
    assert len(found.candidates) == 1 and len(ids) == 4
    reached = found.candidates[0].chunk_ids[0]
    by_text = [reached, *sorted(set(ids) - {reached}, key=lambda chunk_id: -text[chunk_id])]
    # At that weight the facts decide: every passage ranks by its nearest fact, not only the
    # one the candidate reached (the others would follow it by their text).
    assert ids == sorted(own, key=lambda chunk_id: -own[chunk_id]) != by_text
