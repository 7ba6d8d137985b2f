"""Hops' retrieval: the question's entities and nearest facts, the subgraph around them, its
passages ranked without an LLM (relations, bridges, coverage), then the LLM rounds when on."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.query.base import Query, Services
from graphrag_neo4j.query.context import Row
from graphrag_neo4j.query.hops.coverage import bridge_strengths, select_covering
from graphrag_neo4j.query.hops.mentions import capitalised_mentions, llm_mentions
from graphrag_neo4j.query.hops.ranking import (
    Bridge,
    best_first,
    blended_scores,
    bridge_evidence,
    expand_entities,
    relation_evidence,
)
from graphrag_neo4j.query.hops.rerank import Candidate
from graphrag_neo4j.query.hops.retrieval import HopsRetrieval
from graphrag_neo4j.query.hops.rounds import follow_up_round, rerank_round
from graphrag_neo4j.query.retrieval.candidates import (
    entities_for_mentions,
    nearest_facts,
    passages,
)
from graphrag_neo4j.query.retrieval.documents import first_documents
from graphrag_neo4j.query.retrieval.titles import named_head, page_titles
from graphrag_neo4j.runtime.errors import ConfigError, ModelError
from graphrag_neo4j.settings import SearchSettings


def _candidate(row: Row) -> Candidate:
    return Candidate(
        id=row["id"],
        subject=row["subject"],
        predicate=row["predicate"],
        object=row["object"],
        chunk_ids=tuple(row["chunk_ids"] or ()),
        score=float(row["score"]),
    )


@dataclass
class HopsRetriever:
    """Ranks passages for a question the hops way; hops and local search both rank with it."""

    services: Services

    async def _read(self, name: str, **params: Any) -> list[Row]:
        return await asyncio.to_thread(self.services.store.read, name, **params)

    @property
    def _prompts_dir(self) -> Path | None:
        return self.services.settings.prompts_dir

    def _llm(self, search: SearchSettings, notes: list[str]) -> LLMCaller | None:
        """The LLM for the follow-up, NER and rerank, or None when all are off or (with a note)
        it is unavailable."""
        if not (search.hops.rerank or search.hops.follow_up):
            return None
        try:
            return self.services.llm
        except (ModelError, ConfigError) as exc:
            notes.append(f"No LLM for hops' calls, ranked without them: {exc}")
            return None

    async def _mentions(self, question: str, llm: LLMCaller | None, notes: list[str]) -> list[str]:
        if llm is not None:
            try:
                return await llm_mentions(llm, question, self._prompts_dir)
            except ModelError as exc:
                notes.append(f"The NER call failed, capitalised phrases used instead: {exc}")
        return capitalised_mentions(question)

    async def _entity_hits(
        self, question: str, search: SearchSettings, given: Sequence[str] | None,
        llm: LLMCaller | None, notes: list[str],
    ) -> tuple[list[str], list[Row]]:
        """The question's mentions and, for each, the `hops.entity_top_k` best entities."""
        found = list(given) if given is not None else await self._mentions(question, llm, notes)
        mentions = found[:search.hops.max_mentions]  # given ones were checked by make_query
        hits = await entities_for_mentions(
            self.services, mentions, search.hops.entity_top_k, search
        )
        return mentions, hits

    async def _neighbours(self, ids: list[str]) -> set[str]:
        return {row["id"] for row in await self._read("query/hops/entity_neighbours", ids=ids)}

    async def _candidates(
        self, entities: list[Row], relations: list[Row], vector: list[float], search: SearchSettings
    ) -> list[Candidate]:
        endpoints = {row[key] for row in relations for key in ("source_id", "target_id")}
        ball = await expand_entities(
            self._neighbours, {row["id"] for row in entities}, endpoints, search.hops.degree
        )
        if not ball:
            return []
        rows = await self._read(
            "query/hops/relations_around_entities",
            ids=sorted(ball),
            embedding=vector,
            limit=search.hops.max_candidates,
        )
        return [_candidate(row) for row in rows]

    async def _bridges(
        self, question: str, nearest: list[Row], search: SearchSettings
    ) -> list[Bridge]:
        """The bridges named by the passage nearest the question and the pages about them
        (none without one). Where passages tie at the top (hybrid search's vector and word
        winners both score 1), the one whose document title the question names: a question's
        bridges lead on from the page about what it names, not from a page that only shares
        its words."""
        head = named_head(question, nearest)
        if head is None or search.hops.bridge_weight == 0:
            return []
        rows = await self._read(
            "query/hops/head_entities", chunk_id=head["chunk_id"],
            concept_type=self.services.settings.extraction.fast.concept_type,
            max_passages=search.hops.bridge_max_passages,
        )
        titles = page_titles([row["name"] for row in rows])
        pages = await self._read("query/hops/pages_titled", titles=titles) if titles else []
        # The page about a bridge says most about it, however many passages name it
        # ("Somalia", "Hong Kong"): it counts as a bridge only its own passages name.
        bridges = [Bridge(row["name"], int(row["passages"]), tuple(row["chunk_ids"]))
                   for row in rows if row["chunk_ids"]]
        return bridges + [Bridge(row["name"], 1, tuple(row["chunk_ids"])) for row in pages]

    async def _fallback_order(
        self, question: str, candidates: list[Candidate], nearest: list[Row],
        vector: list[float], search: SearchSettings,
    ) -> tuple[list[str], dict[str, str]]:
        """Candidate passages (plus the nearest ones and those naming a bridge) ranked without
        an LLM, and their documents. Relations weigh per how their passage was extracted."""
        relations = relation_evidence(candidates)
        bridges = bridge_evidence(await self._bridges(question, nearest, search), question)
        ids = sorted(set(relations) | set(bridges) | {row["chunk_id"] for row in nearest})
        rows = await self._read("query/hops/score_chunks", ids=ids, embedding=vector)
        scores = {row["chunk_id"]: float(row["score"]) for row in rows}
        # A passage hybrid search found by its words keeps the score the fusion gave it.
        for row in nearest:
            if row["chunk_id"] in scores:
                scores[row["chunk_id"]] = max(scores[row["chunk_id"]], float(row["score"]))
        documents = {row["chunk_id"]: str(row["document_id"]) for row in rows}
        # Co-occurrences (as the passage's extraction method declared) are not stated facts.
        cooccurring = {row["chunk_id"] for row in rows if row["cooccurrence_relations"]}
        relations.update(await self._own_facts(
            [c for c in ids if c not in relations and c not in cooccurring], vector
        ))
        evidence = [
            ({c: v for c, v in relations.items() if c not in cooccurring},
             search.hops.relation_weight),
            ({c: v for c, v in relations.items() if c in cooccurring},
             search.hops.fast_relation_weight),
            (bridges, search.hops.bridge_weight),
        ]
        blended = blended_scores(scores, evidence)
        return await self._covering(question, best_first(blended), blended, search), documents

    async def _own_facts(self, ids: list[str], vector: list[float]) -> dict[str, float]:
        """Per passage no candidate relation reached (found by its text or a bridge), the
        similarity of the nearest fact it states itself. Without it such a passage ranks on its
        text alone, below passages the graph reached with a weaker text and a near fact."""
        if not ids:
            return {}
        rows = await self._read("query/hops/chunk_relation_scores", ids=ids, embedding=vector)
        return {row["chunk_id"]: float(row["score"]) for row in rows}

    async def _covering(
        self, question: str, order: list[str], blended: dict[str, float], search: SearchSettings
    ) -> list[str]:
        """The order with its best `coverage_pool` passages picked in turn, each lifted by the
        rarest entity it shares with those picked before it (unchanged at weight 0)."""
        weight = search.hops.coverage_bridge_weight
        pool = order[: search.hops.coverage_pool]
        if weight == 0 or len(pool) < 2:
            return order
        named: dict[str, dict[str, tuple[str, int]]] = {chunk_id: {} for chunk_id in pool}
        for row in await self._read(
            "query/hops/chunk_bridge_entities", ids=pool,
            concept_type=self.services.settings.extraction.fast.concept_type,
            max_passages=search.hops.bridge_max_passages,
        ):
            named[row["chunk_id"]][row["id"]] = (row["name"], int(row["passages"]))
        bridges = {chunk_id: bridge_strengths(found, question) for chunk_id, found in named.items()}
        return select_covering(order, blended, bridges, weight)

    async def retrieve(
        self, question: str, search: SearchSettings, mentions: Sequence[str] | None = None,
        follow_up: str | None = None,
    ) -> HopsRetrieval:
        """Mentions -> entity and relation hits -> expanded candidates -> ranked chunk ids
        (NER and rerank calls when `hops.rerank` is on, the follow-up call when
        `hops.follow_up` is: retrieval only makes them too, so it shows the passages the answer
        reads). A `follow_up` given (an earlier retrieval's) replaces the follow-up call."""
        notes: list[str] = []
        llm = self._llm(search, notes)
        vector = await self.services.embedder.embed_query(question)
        # The ways are independent: the NER call overlaps the vector searches.
        (names, entities), relations, nearest = await asyncio.gather(
            self._entity_hits(
                question, search, mentions, llm if search.hops.rerank else None, notes
            ),
            nearest_facts(self.services, vector, search.hops.relation_top_k),
            passages(self.services, question, vector, max(search.hops.final_k, 1), search),
        )
        candidates = await self._candidates(entities, relations, vector, search)
        order, documents = await self._fallback_order(
            question, candidates, nearest, vector, search
        )
        found = HopsRetrieval(
            names, entities, relations, candidates, order, documents, order, nearest, notes=notes
        )
        if llm is not None and search.hops.rerank and candidates:
            await rerank_round(found, question, llm, search, self._prompts_dir)
        if llm is not None and search.hops.follow_up and found.chunk_order:
            await follow_up_round(found, question, llm, search, self.retrieve, self.texts,
                                  self._prompts_dir, follow_up)
        return found

    async def texts(self, found: HopsRetrieval, ids: list[str]) -> list[Row]:
        """The passage rows of `ids` in that order (those the graph lacks left out), reading
        only those `found` has not read yet."""
        missing = [chunk_id for chunk_id in ids if chunk_id not in found.texts]
        if missing:
            for row in await self._read("query/chunks_by_ids", ids=missing):
                found.texts[row["chunk_id"]] = row
        return [found.texts[chunk_id] for chunk_id in ids if chunk_id in found.texts]

    async def rank_documents(self, query: Query, k: int) -> list[str]:
        """Document ids in hops order, best first, until k documents (a retrieval for more
        passages when those found name fewer)."""
        first: list[HopsRetrieval] = []

        async def documents_of_top(n: int) -> list[str]:
            search = query.with_search(hops={"final_k": n}).search
            # Later rounds reuse the first round's mentions and follow-up: no new LLM calls.
            earlier = first[0] if first else None
            found = await self.retrieve(
                query.question, search, earlier.mentions if earlier else query.mentions,
                earlier.follow_up if earlier else None,
            )
            if not first:
                first.append(found)
            return [found.document_of[c] for c in found.chunk_order if c in found.document_of]

        return await first_documents(documents_of_top, k)
