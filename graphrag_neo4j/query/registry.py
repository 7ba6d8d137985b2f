"""Dispatch for the passage-returning query methods (naive, hops): answers and rankings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphrag_neo4j.errors import InputError
from graphrag_neo4j.records import Answer

if TYPE_CHECKING:
    from graphrag_neo4j.engine import GraphRAG

PASSAGE_METHODS = ("naive", "hops")


async def run_method(rag: GraphRAG, method: str, question: str, **overrides: Any) -> Answer:
    """Answer `question` with naive or hops search.

    `overrides` are `response_type`, `history`, hops' `mentions` (a prepared NER list), and any
    SearchSettings field for this query, e.g. `hops_rerank=False`, `hops_degree=2`,
    `hops_final_k=5`, `naive_top_k=5`.
    """
    if method == "naive":
        from graphrag_neo4j.query.naive import NaiveSearch

        return await NaiveSearch(rag).answer(question, **overrides)
    if method == "hops":
        from graphrag_neo4j.query.hops.search import HopsSearch

        return await HopsSearch(rag).answer(question, **overrides)
    raise InputError(f"Unknown method {method!r} here: use one of {', '.join(PASSAGE_METHODS)}.")


async def rank_documents(
    rag: GraphRAG, method: str, question: str, k: int, **overrides: Any
) -> list[str]:
    """The top-k document ids a method retrieves for `question` (no answer call)."""
    if method == "naive":
        from graphrag_neo4j.query.naive import rank_documents as naive_rank

        return await naive_rank(rag, question, k)
    if method == "hops":
        from graphrag_neo4j.query.hops.search import rank_documents as hops_rank

        return await hops_rank(rag, question, k, **overrides)
    raise InputError(f"Unknown method {method!r} here: use one of {', '.join(PASSAGE_METHODS)}.")
