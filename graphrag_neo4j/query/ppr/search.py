"""PPR search: passages ranked by Personalized PageRank from the question's seeds, one answer."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from graphrag_neo4j.query.answers.passages import answer_from_context, passage_context
from graphrag_neo4j.query.base import Answer, Query, Services
from graphrag_neo4j.query.context import Row, SearchContext
from graphrag_neo4j.query.ppr.ranking import ENTITY, PassageRanking, rank_passages
from graphrag_neo4j.query.retrieval.documents import first_documents


@dataclass
class PprSearch:
    """Context builder (seeds -> neighbourhood -> walk -> passages) + one answer call."""

    services: Services
    name = "ppr"
    description = (
        "Multi-step questions whose answer sits in a passage that shares few words with the"
        " question: a random walk from the entities and passages nearest the question ranks"
        " the passages linked to them through the graph."
    )
    streams = True
    needs_llm = False
    ranks_documents = True

    async def build_context(self, query: Query) -> SearchContext:
        """Retrieval only: the `ppr.top_k` passages the walk visits most, best first."""
        search = query.search
        vector = await self.services.embedder.embed_query(query.question)
        ranking = await rank_passages(self.services, query.question, vector, search)
        top = ranking.chunk_ids[: search.ppr.top_k]
        rows = await asyncio.to_thread(self.services.store.read, "query/chunks_by_ids", ids=top)
        by_id = {row["chunk_id"]: row for row in rows}
        passages = [by_id[chunk_id] for chunk_id in top if chunk_id in by_id]
        return passage_context(passages, search.passage_context_tokens, _walk_tables(ranking))

    async def answer(self, query: Query) -> Answer:
        """Build the context, then one answer call citing the passages it used."""
        context = await self.build_context(query)
        return await answer_from_context(self.services, self.name, query, context)

    async def rank_documents(self, query: Query, k: int) -> list[str]:
        """The documents of the passages the walk visits most, best first, until k documents."""
        vector = await self.services.embedder.embed_query(query.question)
        ranking = await rank_passages(self.services, query.question, vector, query.search)

        async def documents_of_top(n: int) -> list[str]:
            top = ranking.chunk_ids[:n]
            rows = await asyncio.to_thread(
                self.services.store.read, "query/chunk_documents", ids=top)
            by_id = {row["chunk_id"]: str(row["document_id"]) for row in rows}
            return [by_id[chunk_id] for chunk_id in top if chunk_id in by_id]

        return await first_documents(documents_of_top, k)

    def close(self) -> None:
        """Nothing to release: the method reads through the engine's store."""


def _walk_tables(ranking: PassageRanking) -> dict[str, list[Row]]:
    """The seeds and their restart weights, for `--show-context` and for debugging a ranking."""
    seeds: list[Row] = [
        {"kind": "entity" if kind == ENTITY else "passage", "id": node_id,
         "weight": round(weight, 6)}
        for (kind, node_id), weight in sorted(ranking.seed_weights.items(), key=lambda kv: -kv[1])
    ]
    return {"Seeds": seeds}
