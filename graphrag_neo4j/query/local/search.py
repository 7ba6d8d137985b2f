"""Local search: the entities nearest the question, what surrounds them in the graph, one answer."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from graphrag_neo4j.communities.extractive import STATUS as EXTRACTIVE
from graphrag_neo4j.query.answers.passages import answer_from_context
from graphrag_neo4j.query.base import Answer, GraphReader, Query, Services
from graphrag_neo4j.query.context import (
    Row,
    SearchContext,
    TableBuilder,
    documents_in_order,
    join_tables,
)
from graphrag_neo4j.query.hops.retriever import HopsRetriever
from graphrag_neo4j.query.local.facts import FactsBuilder, fact_cells, stated_relations
from graphrag_neo4j.query.retrieval.candidates import named_entity_ids
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import SearchSettings

ENTITY_INDEX = "entity_description_embedding"


def retrieval_params(
    search: SearchSettings,
    vector: Sequence[float],
    seed_ids: Sequence[str] = (),
    chunk_scores: Mapping[str, float] | None = None,
    chunk_ids: Sequence[str] = (),
) -> dict[str, Any]:
    """The parameters of cypher/query/local_retrieval.cypher for the question's vector and
    the passages to show (`chunk_ids`, best first)."""
    return {
        "query_vector": list(vector),
        "top_k": search.local.top_k_entities,
        "passage_entities": search.local.passage_entities,
        "chunk_ids": list(chunk_ids[: search.local.top_chunks]),
        "top_communities": search.local.top_communities,
        "top_inside_rels": search.local.top_inside_rels,
        "top_outside_rels": search.local.top_outside_rels,
        "rels_per_entity": search.local.rels_per_entity,
        "seed_ids": list(seed_ids),
        "chunk_scores": dict(chunk_scores or {}),
        "extractive": EXTRACTIVE,
    }


def passage_ranker_search(search: SearchSettings) -> SearchSettings:
    """The settings hops ranks local's passages with: as many as local shows, no LLM rerank
    nor follow-up (local makes no model call before its answer)."""
    hops = search.hops.model_copy(update={
        "final_k": search.local.top_chunks, "rerank": False, "follow_up": False})
    return search.model_copy(update={"hops": hops})


def check_entity_index(store: GraphReader, uri: str, dimensions: int) -> None:
    """Refuse in one sentence a graph without the entity index, or with another embedder's."""
    rows = store.read("database/embedder/show_vector_indexes")
    indexes = {row["name"]: row["dimensions"] for row in rows}
    if ENTITY_INDEX not in indexes:
        raise InputError(
            f"Local search cannot use the {ENTITY_INDEX!r} index in {uri} (it does not exist);"
            " index some documents first with `graphrag-neo4j index`."
        )
    if indexes[ENTITY_INDEX] != dimensions:
        raise InputError(
            f"Local search cannot use the {ENTITY_INDEX!r} index in {uri}: it holds"
            f" {indexes[ENTITY_INDEX]}-dimension vectors but the configured embedder makes"
            f" {dimensions}; query with the embedder the graph was indexed with."
        )


def pack_context(
    metadata: dict[str, Any], search: SearchSettings, score: float,
    cooccurrence: str | None = None,
) -> SearchContext:
    """Fill the tables within the token budget by proportions; unused shares flow onwards.
    Relations whose predicate is `cooccurrence` state nothing and are left out.

    The passages come last, nearest the question: they are the evidence itself (entity
    descriptions and facts are excerpts of them), and a small model leans on what it read
    last (placed first, a fast graph's one-sentence entity descriptions became the answer)."""
    total = search.local.context_tokens
    reports = TableBuilder(
        "Reports", ["title", "content"], int(total * search.local.community_prop)
    )
    left = reports.fill(metadata.get("reports", []), lambda r: (r["title"], r["summary"]))
    chunks = list(metadata.get("chunks", []))
    sources = TableBuilder("Sources", ["text"], int(total * search.local.text_unit_prop) + left)
    sources.fill(chunks, _passage_cells)
    rest = total - reports.used_tokens - sources.used_tokens
    entities = TableBuilder("Entities", ["entity", "type", "description"], rest // 2)
    left = entities.fill(
        metadata.get("entities", []), lambda e: (e["name"], e["type"], e["description"])
    )
    # The relations as numbered facts citing the shown passages that state them, inside ones
    # (between the question's entities) first.
    relations = FactsBuilder("Relationships", [], rest // 2 + left)
    rels = stated_relations(
        [*metadata.get("inside_rels", []), *metadata.get("outside_rels", [])], cooccurrence
    )
    left = relations.fill(rels, lambda r: fact_cells(r, sources.rows, cooccurrence))
    # What the entities and facts leave goes to the passages that did not fit; never past the
    # budget: the entities had the share a passage too long for it left unused.
    spent = reports.used_tokens + entities.used_tokens + relations.used_tokens
    sources.budget_tokens = min(sources.budget_tokens + left, total - spent)
    sources.fill(chunks[len(sources.rows):], _passage_cells)
    tables = [entities, relations, sources, reports]
    return SearchContext(
        text=join_tables(tables),
        sources={t.title: t.rows for t in tables},
        ranked_document_ids=documents_in_order(sources.rows),
        score=score,
    )


def _passage_cells(chunk: Row) -> tuple[str]:
    return (chunk["text"],)


@dataclass
class LocalSearch:
    """Context builder + prompt + one LLM call, over the entities nearest the question."""

    services: Services
    name = "local"
    description = (
        "Questions about specific people, places, organisations or things: reads the entities"
        " nearest the question with their relations, community reports and the passages that"
        " mention them."
    )
    streams = True
    needs_llm = False
    ranks_documents = True
    _index_checked: bool = field(default=False, init=False)

    def close(self) -> None:
        """Nothing to release: the method reads through the engine's store."""

    async def retrieve(self, question: str, search: SearchSettings) -> tuple[Row, float]:
        """The retrieval query's metadata and best score for the question."""
        vector = await self.services.embedder.embed_query(question)
        seeds, ranked = await asyncio.gather(
            named_entity_ids(self.services, question, search.local.seeds_per_mention, search),
            HopsRetriever(self.services).retrieve(question, passage_ranker_search(search)),
        )
        # The passages come from the graph (Microsoft GraphRAG's local search takes its text
        # units from the matched entities and relations): hops' ranking, the graph ranker that
        # measured best on both MuSiQue graphs, without its LLM rerank.
        chunk_scores = {row["chunk_id"]: row["score"] for row in ranked.nearest}
        params = retrieval_params(search, vector, seeds, chunk_scores, ranked.blended_order)
        rows = await asyncio.to_thread(self._read_context, params)
        if not rows:
            return {}, 0.0
        return dict(rows[0]["metadata"]), float(rows[0]["score"])

    def _read_context(self, params: dict[str, Any]) -> list[Row]:
        """The retrieval statement's rows, once the entity index is known to fit the vectors."""
        if not self._index_checked:
            uri = self.services.settings.neo4j.uri
            check_entity_index(self.services.store, uri, len(params["query_vector"]))
            self._index_checked = True
        return self.services.store.read("query/local_retrieval", **params)

    async def build_context(self, query: Query) -> SearchContext:
        """Retrieval only: the packed data tables for the question."""
        metadata, score = await self.retrieve(query.question, query.search)
        cooccurrence = self.services.settings.extraction.fast.cooccurrence_predicate
        return pack_context(metadata, query.search, score, cooccurrence)

    async def answer(self, query: Query) -> Answer:
        """Build the context, then one answer call citing the rows it used."""
        context = await self.build_context(query)
        return await answer_from_context(self.services, self.name, query, context)

    async def rank_documents(self, query: Query, k: int) -> list[str]:
        """The documents of local's passage ranking, best first, until k documents. The
        context shows the passages in this order, as many as its token budget holds."""
        ranker = replace(query, search=passage_ranker_search(query.search))
        return await HopsRetriever(self.services).rank_documents(ranker, k)
