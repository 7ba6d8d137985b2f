"""Hybrid retrieval: fusion is deterministic."""

from __future__ import annotations

from pathlib import Path

from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.retrieval.candidates import passages
from graphrag_neo4j.query.retrieval.hybrid import max_score_fusion, reciprocal_rank_fusion
from tests.unit.query.fakes import fake_services


def test_fusion_rewards_agreement_and_breaks_ties_by_first_sight() -> None:
    vector = ["a", "b", "c"]
    text = ["c", "d", "a"]
    fused = reciprocal_rank_fusion([vector, text], key=lambda x: x)
    assert fused[0] == "a"  # ranks 1 and 3 beat c's 3 and 1 only by first sight: equal scores
    assert fused == ["a", "c", "b", "d"]
    assert reciprocal_rank_fusion([text, vector], key=lambda x: x) == ["c", "a", "d", "b"]
    assert fused == reciprocal_rank_fusion([vector, text], key=lambda x: x)


async def test_a_rare_name_ranks_its_passage_first_where_vectors_alone_do_not(
    tmp_path: Path,
) -> None:
    nearest = [
        {"chunk_id": f"c{i}", "document_id": f"d{i}", "title": "", "text": "",
         "score": 0.95 - 0.01 * i}
        for i in range(1, 6)
    ]
    # The passage naming him is only fifth by meaning, but BM25's clear first.
    by_words = [{"chunk_id": "c5", "document_id": "d5", "title": "", "text": "", "score": 7.0},
                {"chunk_id": "c3", "document_id": "d3", "title": "", "text": "", "score": 2.0}]
    services = fake_services(
        {
            "query/search/search_chunks_by_vector": nearest,
            "query/search/search_chunks_by_fulltext": by_words,
        },
        [],
        tmp_path,
    )
    question = "Where was Xenocrates of Chalcedon born?"
    vector = await services.embedder.embed_query(question)

    async def top3(**options: object) -> list[tuple[str, float]]:
        query = make_query(services.settings, question, **options)
        rows = await passages(services, question, vector, 3, query.search)
        return [(row["chunk_id"], round(row["score"], 2)) for row in rows]

    # Max: the BM25 winner ties the vector favourite (both 1 relative to their best) and wins
    # the tie, as both ways found it. Scores stay on the vector scale, never BM25's 7.0.
    assert await top3(hybrid={"enabled": True}) == [("c5", 0.94), ("c1", 0.94), ("c2", 0.93)]
    words = services.store.params_of("query/search/search_chunks_by_fulltext")[0]["query"]
    assert words == "xenocrates chalcedon born"
    # RRF: ranks only; c3, third and second, edges out c5, fifth and first. The i-th row takes
    # the i-th vector score.
    assert await top3(hybrid={"enabled": True, "fusion": "rrf"}) == [
        ("c3", 0.94), ("c5", 0.93), ("c1", 0.92)]
    assert await top3(hybrid={"enabled": False}) == [("c1", 0.94), ("c2", 0.93), ("c3", 0.92)]


def test_max_fusion_compares_scores_relative_to_each_rankings_best() -> None:
    vector = [("a", 0.90), ("b", 0.88), ("c", 0.60)]
    text = [("d", 12.0), ("c", 11.0), ("e", 1.0)]
    fused = max_score_fusion([vector, text], key=lambda x: x[0], score=lambda x: x[1])
    # a and d both score 1, found one way each (first seen wins the tie); c takes its better,
    # fulltext, 11/12.
    assert [(item[0], round(relative, 3)) for item, relative in fused] == [
        ("a", 1.0), ("d", 1.0), ("b", 0.978), ("c", 0.917), ("e", 0.083)]
    assert [item for item, _ in max_score_fusion([[], text], key=lambda x: x[0],
                                                 score=lambda x: x[1])] == text
