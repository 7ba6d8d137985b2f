"""Hops search (the "Graph RAG with Milvus" method): multi-way retrieval, expansion, rerank."""

from __future__ import annotations

from dataclasses import dataclass, field

from graphrag_neo4j.query.answers.passages import answer_from_context
from graphrag_neo4j.query.base import Answer, Query, Services
from graphrag_neo4j.query.context import SearchContext
from graphrag_neo4j.query.hops.packing import hops_context, passages_read
from graphrag_neo4j.query.hops.retriever import HopsRetriever


@dataclass
class HopsSearch:
    """Context builder (entities + relations -> subgraph -> rerank -> passages) + one answer."""

    services: Services
    name = "hops"
    description = (
        "Multi-step questions that chain facts (\"the teacher of the person who ...\"): follows"
        " the relations around the entities the question names to the passages along the chain."
    )
    streams = True
    needs_llm = True  # the follow-up call, on by default; NER and rerank with hops.rerank
    ranks_documents = True
    retriever: HopsRetriever = field(init=False)

    def __post_init__(self) -> None:
        self.retriever = HopsRetriever(self.services)

    async def build_context(self, query: Query) -> SearchContext:
        """Retrieval only: the facts and `hops.final_k` passages for the answer prompt.

        `query.mentions` replaces named-entity recognition (the notebook's prepared NER list).
        """
        found = await self.retriever.retrieve(query.question, query.search, query.mentions)
        read = passages_read(found, query.search.hops.final_k)
        return hops_context(found, await self.retriever.texts(found, read), query.search)

    async def answer(self, query: Query) -> Answer:
        """Build the context (NER and rerank calls when enabled), then one answer call."""
        context = await self.build_context(query)
        return await answer_from_context(self.services, self.name, query, context)

    async def rank_documents(self, query: Query, k: int) -> list[str]:
        """Document ids in hops order, best first, until k documents."""
        return await self.retriever.rank_documents(query, k)

    def close(self) -> None:
        """Nothing to release: the method reads through the engine's store."""
