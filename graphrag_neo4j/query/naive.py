"""Naive search: the chunks nearest to the question in the vector index, and one answer call."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from graphrag_neo4j.query.context import SearchContext
from graphrag_neo4j.query.passages import (
    ann_candidates,
    answer_call,
    passage_context,
    usage_totals,
    with_overrides,
)
from graphrag_neo4j.records import Answer

if TYPE_CHECKING:
    from graphrag_neo4j.engine import GraphRAG


@dataclass
class NaiveSearch:
    """Context builder (chunk vector search) + prompts/naive_answer.txt + one LLM call."""

    rag: GraphRAG

    async def build_context(self, question: str, **overrides: Any) -> SearchContext:
        """Retrieval only: the `naive_top_k` passages nearest to the question, best first."""
        search = with_overrides(self.rag.settings.search, overrides)
        vector = await self.rag.embedder.embed_query(question)
        rows = await asyncio.to_thread(
            self.rag.store.read,
            "query/search_chunks_by_vector",
            embedding=vector,
            k=search.naive_top_k,
            candidates=ann_candidates(search.naive_top_k),
        )
        return passage_context(rows, search.passage_context_tokens)

    async def answer(
        self,
        question: str,
        *,
        response_type: str | None = None,
        history: Sequence[tuple[str, str]] | None = None,
        **overrides: Any,
    ) -> Answer:
        """Build the context, then one answer call citing the passages it used."""
        before = usage_totals(self.rag)
        context = await self.build_context(question, **overrides)
        return await answer_call(
            self.rag, "naive", question, context, response_type, history, before
        )


async def rank_documents(rag: GraphRAG, question: str, k: int) -> list[str]:
    """Document ids of the k nearest passages, best first (for recall evaluation)."""
    context = await NaiveSearch(rag).build_context(question, naive_top_k=max(k, 1))
    return context.ranked_document_ids[:k]
