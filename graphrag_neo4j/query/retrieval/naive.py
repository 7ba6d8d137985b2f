"""Naive search: the passages nearest the question (vector, plus BM25 when hybrid), one answer."""

from __future__ import annotations

from dataclasses import dataclass

from graphrag_neo4j.query.answers.passages import answer_from_context, passage_context
from graphrag_neo4j.query.base import Answer, Query, Services
from graphrag_neo4j.query.context import SearchContext
from graphrag_neo4j.query.retrieval.candidates import passages
from graphrag_neo4j.query.retrieval.documents import first_documents


@dataclass
class NaiveSearch:
    """Context builder (passage search) + prompts/query/answers/naive.txt + one LLM call."""

    services: Services
    name = "naive"
    description = (
        "Plain text search without the graph: answers from the passages most similar to the"
        " question; the fastest method and the baseline for the others."
    )
    streams = True
    needs_llm = False
    ranks_documents = True

    async def build_context(self, query: Query) -> SearchContext:
        """Retrieval only: the `naive.top_k` passages nearest to the question, best first."""
        search = query.search
        vector = await self.services.embedder.embed_query(query.question)
        rows = await passages(self.services, query.question, vector, search.naive.top_k, search)
        return passage_context(rows, search.passage_context_tokens)

    async def answer(self, query: Query) -> Answer:
        """Build the context, then one answer call citing the passages it used."""
        context = await self.build_context(query)
        return await answer_from_context(self.services, self.name, query, context)

    async def rank_documents(self, query: Query, k: int) -> list[str]:
        """The documents of the nearest passages, best first, until k documents."""
        vector = await self.services.embedder.embed_query(query.question)

        async def documents_of_top(n: int) -> list[str]:
            rows = await passages(self.services, query.question, vector, n, query.search)
            return [str(row["document_id"]) for row in rows]

        return await first_documents(documents_of_top, k)

    def close(self) -> None:
        """Nothing to release: the method reads through the engine's store."""
