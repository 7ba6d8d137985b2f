"""Local search: entity vector index + retrieval query (via LangChain Neo4jVector) + one answer."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphrag_neo4j.errors import InputError
from graphrag_neo4j.query.base import Answer, Query, Services
from graphrag_neo4j.query.candidates import entities_by_text, passages
from graphrag_neo4j.query.context import (
    Row,
    SearchContext,
    TableBuilder,
    documents_in_order,
    join_tables,
)
from graphrag_neo4j.query.hops.mentions import capitalised_mentions
from graphrag_neo4j.query.passages import answer_from_context
from graphrag_neo4j.resources import load_cypher
from graphrag_neo4j.settings import SearchSettings

if TYPE_CHECKING:
    from langchain_neo4j import Neo4jVector

ENTITY_INDEX = "entity_description_embedding"


def retrieval_params(
    search: SearchSettings,
    seed_ids: Sequence[str] = (),
    chunk_scores: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """The `$params` of cypher/query/local_retrieval.cypher."""
    return {
        "top_chunks": search.local.top_chunks,
        "top_communities": search.local.top_communities,
        "top_inside_rels": search.local.top_inside_rels,
        "top_outside_rels": search.local.top_outside_rels,
        "rels_per_entity": search.local.rels_per_entity,
        "mention_weight": search.local.mention_weight,
        "seed_ids": list(seed_ids),
        "chunk_scores": dict(chunk_scores or {}),
    }


def pack_context(metadata: dict[str, Any], search: SearchSettings, score: float) -> SearchContext:
    """Fill the tables within the token budget by proportions; unused shares flow onwards."""
    total = search.local.context_tokens
    reports = TableBuilder(
        "Reports", ["title", "content"], int(total * search.local.community_prop)
    )
    left = reports.fill(metadata.get("reports", []), lambda r: (r["title"], r["summary"]))
    sources = TableBuilder("Sources", ["text"], int(total * search.local.text_unit_prop) + left)
    left = sources.fill(metadata.get("chunks", []), lambda c: (c["text"],))
    rest = total - reports.used_tokens - sources.used_tokens
    entities = TableBuilder("Entities", ["entity", "type", "description"], rest // 2)
    left = entities.fill(
        metadata.get("entities", []), lambda e: (e["name"], e["type"], e["description"])
    )
    relation_columns = ["source", "predicate", "target", "description", "weight"]
    relations = TableBuilder("Relationships", relation_columns, rest // 2 + left)
    rels = list(metadata.get("inside_rels", [])) + list(metadata.get("outside_rels", []))
    relations.fill(
        rels,
        lambda r: (r["source"], r["predicate"], r["target"], r["description"], r["weight"]),
    )
    tables = [entities, relations, reports, sources]
    return SearchContext(
        text=join_tables(tables),
        sources={t.title: t.rows for t in tables},
        ranked_document_ids=documents_in_order(sources.rows),
        score=score,
    )


@dataclass
class LocalSearch:
    """Context builder + prompt + one LLM call, over the entities nearest the question."""

    services: Services
    streams = True
    needs_llm = False
    ranks_documents = True
    _vector_store: Neo4jVector | None = field(default=None, init=False)

    def _store(self) -> Neo4jVector:
        if self._vector_store is None:
            from langchain_neo4j import Neo4jVector

            # LangChain's own driver reports "label does not exist yet" notices (e.g. before
            # communities are built) as warnings; our store switches them off the same way.
            logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)

            neo4j = self.services.settings.neo4j
            try:
                self._vector_store = self._open(Neo4jVector)
            except ValueError as exc:
                raise InputError(
                    f"Local search cannot use the {ENTITY_INDEX!r} index in {neo4j.uri} ({exc});"
                    " index some documents first with `graphrag-neo4j index`."
                ) from exc
        return self._vector_store

    def _open(self, vector_class: type[Neo4jVector]) -> Neo4jVector:
        neo4j = self.services.settings.neo4j
        return vector_class.from_existing_index(
            embedding=self.services.embedder.embedder,
            url=neo4j.uri,
            username=neo4j.user,
            password=neo4j.secret(),
            database=neo4j.database,
            index_name=ENTITY_INDEX,
            retrieval_query=load_cypher("query/local_retrieval"),
        )

    def close(self) -> None:
        """Close the driver LangChain's vector store opened (the engine calls this on close)."""
        if self._vector_store is not None:
            self._vector_store._driver.close()  # LangChain offers no close()
            self._vector_store = None

    async def _seeds(self, question: str, search: SearchSettings) -> list[str]:
        """Entities the question names (fulltext on its capitalised phrases; the whole
        question too when hybrid): vectors of short names blur, so these join by name."""
        per_mention = search.local.seeds_per_mention
        hits = await entities_by_text(self.services, capitalised_mentions(question), per_mention)
        if search.hybrid.enabled:
            hits += await entities_by_text(self.services, [question], per_mention)
        return list(dict.fromkeys(row["id"] for row in hits))

    async def retrieve(self, question: str, search: SearchSettings) -> tuple[Row, float]:
        """The retrieval query's metadata and best score for the question."""
        vector = await self.services.embedder.embed_query(question)
        seeds, nearest = await asyncio.gather(
            self._seeds(question, search),
            passages(self.services, question, vector, search.local.top_chunks, search),
        )
        store = await asyncio.to_thread(self._store)
        params = retrieval_params(search, seeds, {row["chunk_id"]: row["score"] for row in nearest})
        hits = await asyncio.to_thread(
            store.similarity_search_with_score_by_vector,
            vector,
            k=search.local.top_k_entities,
            params=params,
        )
        if not hits:
            return {}, 0.0
        document, score = hits[0]
        return dict(document.metadata), float(score)

    async def build_context(self, query: Query) -> SearchContext:
        """Retrieval only: the packed data tables for the question."""
        metadata, score = await self.retrieve(query.question, query.search)
        return pack_context(metadata, query.search, score)

    async def answer(self, query: Query) -> Answer:
        """Build the context, then one answer call citing the rows it used."""
        context = await self.build_context(query)
        return await answer_from_context(self.services, "local", query, context)

    async def rank_documents(self, query: Query, k: int) -> list[str]:
        """Document ids in the order the context ranks their chunks."""
        context = await self.build_context(query.with_search(local={"top_chunks": max(k, 1)}))
        return context.ranked_document_ids[:k]
