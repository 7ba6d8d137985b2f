"""Hops search (the "Graph RAG with Milvus" method): multi-way retrieval, expansion, rerank."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.query.answers.passages import (
    answer_from_context,
    passage_context,
)
from graphrag_neo4j.query.base import Answer, Query, Services
from graphrag_neo4j.query.context import Row, SearchContext
from graphrag_neo4j.query.hops.coverage import bridge_strengths, select_covering
from graphrag_neo4j.query.hops.follow_up import (
    follow_up_mentions,
    follow_up_query,
    joined_order,
    placed_passages,
)
from graphrag_neo4j.query.hops.mentions import capitalised_mentions, llm_mentions
from graphrag_neo4j.query.hops.ranking import (
    Bridge,
    best_first,
    blended_scores,
    bridge_evidence,
    expand_entities,
    passages_after_rerank,
    relation_evidence,
    shown_to_reranker,
)
from graphrag_neo4j.query.hops.rerank import Candidate, Rerank, rerank_relations
from graphrag_neo4j.query.local.facts import fact_line, source_refs
from graphrag_neo4j.query.retrieval.candidates import (
    entities_for_mentions,
    nearest_facts,
    passages,
)
from graphrag_neo4j.query.retrieval.documents import first_documents
from graphrag_neo4j.query.retrieval.titles import named_head, page_titles
from graphrag_neo4j.runtime.errors import ConfigError, ModelError
from graphrag_neo4j.settings import SearchSettings

# Relations listed in the answer prompt: enough to show the chain, short for small models.
FACTS_IN_PROMPT = 10
RELATIONS_PER_PASSAGE_SHOWN = 2


@dataclass
class HopsRetrieval:
    """Everything one hops retrieval found: `blended_order` ranks chunks without the LLM,
    `chunk_order` is the final ranking (the reranker's choices first when it ran, the
    follow-up's passages after the first ones when it ran)."""

    mentions: list[str]
    entity_hits: list[Row]
    relation_hits: list[Row]
    candidates: list[Candidate]
    blended_order: list[str]
    document_of: dict[str, str]
    chunk_order: list[str] = field(default_factory=list)
    nearest: list[Row] = field(default_factory=list)
    chosen: list[Candidate] = field(default_factory=list)
    rerank: Rerank | None = None
    follow_up: str = ""
    follow_up_added: list[str] = field(default_factory=list)
    rerank_added: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Passage rows (id, title, text) already read, by chunk id: the follow-up's, for the answer.
    texts: dict[str, Row] = field(default_factory=dict)


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

    async def _read(self, name: str, **params: Any) -> list[Row]:
        return await asyncio.to_thread(self.services.store.read, name, **params)

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
                return await llm_mentions(llm, question, self.services.settings.prompts_dir)
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
            await self._rerank(found, question, llm, search)
        if llm is not None and search.hops.follow_up and found.chunk_order:
            await self._follow_up(found, question, llm, search, follow_up)
        return found

    async def _follow_up(
        self, found: HopsRetrieval, question: str, llm: LLMCaller, search: SearchSettings,
        given: str | None = None,
    ) -> None:
        """Ask the LLM what the question still needs after the best passages (unless `given`),
        retrieve for the question with it, and place the best of those after the first
        passages."""
        try:
            found.follow_up = given if given is not None else await self._ask_follow_up(
                found, question, llm, search)
        except ModelError as exc:
            found.notes.append(f"The follow-up call failed, ranked without it: {exc}")
            return
        if not found.follow_up:
            found.notes.append("The follow-up reply held no query, ranked without it.")
            return
        # The question stays in the query: its other conditions still pick among the passages.
        once = search.model_copy(update={"hops": search.hops.model_copy(
            update={"follow_up": False})})
        names = follow_up_mentions(found.mentions, found.follow_up)
        second = await self.retrieve(f"{question} {found.follow_up}", once, names)
        keep, insert = search.hops.follow_up_keep, search.hops.follow_up_insert
        found.follow_up_added = placed_passages(
            found.chunk_order, second.chunk_order, keep, insert
        )
        found.chunk_order = joined_order(found.chunk_order, second.chunk_order, keep, insert)
        found.document_of = {**second.document_of, **found.document_of}

    async def _ask_follow_up(
        self, found: HopsRetrieval, question: str, llm: LLMCaller, search: SearchSettings
    ) -> str:
        """The LLM's query for what the question still needs after the best passages."""
        read = await self._texts(found, found.chunk_order[: search.hops.follow_up_passages])
        return await follow_up_query(llm, question, read, self.services.settings.prompts_dir)

    async def _texts(self, found: HopsRetrieval, ids: list[str]) -> list[Row]:
        """The passage rows of `ids` in that order (those the graph lacks left out), reading
        only those `found` has not read yet."""
        missing = [chunk_id for chunk_id in ids if chunk_id not in found.texts]
        if missing:
            for row in await self._read("query/chunks_by_ids", ids=missing):
                found.texts[row["chunk_id"]] = row
        return [found.texts[chunk_id] for chunk_id in ids if chunk_id in found.texts]

    async def _rerank(
        self, found: HopsRetrieval, question: str, llm: LLMCaller, search: SearchSettings
    ) -> None:
        """Let the LLM choose among the candidates; their passages then come after the first
        `hops.rerank_keep`, which never move."""
        shown = shown_to_reranker(
            found.candidates, search.hops.rerank_candidates, RELATIONS_PER_PASSAGE_SHOWN
        )
        try:
            found.rerank = await rerank_relations(
                llm, question, shown, search.hops.rerank_select, self.services.settings.prompts_dir
            )
        except ModelError as exc:
            found.notes.append(f"The rerank call failed, ranked by embeddings: {exc}")
            return
        if not found.rerank.parsed:
            # A reply without the list is no ranking: the thought's citations are guesses.
            found.notes.append("The rerank reply held no list of facts, ranked by embeddings.")
            return
        found.chosen = [shown[i] for i in found.rerank.order[: search.hops.rerank_select]]
        found.chunk_order, found.rerank_added = passages_after_rerank(
            found.chosen, found.blended_order, search.hops.rerank_keep, search.hops.rerank_select)

    async def build_context(self, query: Query) -> SearchContext:
        """Retrieval only: the facts and `hops.final_k` passages for the answer prompt.

        `query.mentions` replaces named-entity recognition (the notebook's prepared NER list).
        """
        found = await self.retrieve(query.question, query.search, query.mentions)
        return await self._pack(found, query.search)

    async def _pack(self, found: HopsRetrieval, search: SearchSettings) -> SearchContext:
        top = found.chunk_order[: search.hops.final_k]
        # The passages of the facts the rerank chose and the follow-up's (the next hop's) may
        # sit below the first ones, which they never move: the answer reads them beside those.
        for added in (found.rerank_added, found.follow_up_added):
            top += [chunk_id for chunk_id in added if chunk_id not in top]
        passages = await self._texts(found, top)
        facts = found.chosen or found.candidates[:FACTS_IN_PROMPT]
        context = passage_context(passages, search.passage_context_tokens, _extra(found))
        fact_rows = numbered_facts(facts[:FACTS_IN_PROMPT], context.sources["Sources"])
        context.sources["Relationships"] = fact_rows
        context.notes = list(found.notes)
        if fact_rows:
            context.text = f"{facts_block(fact_rows)}\n\n{context.text}"
        return context

    async def answer(self, query: Query) -> Answer:
        """Build the context (NER and rerank calls when enabled), then one answer call."""
        context = await self.build_context(query)
        return await answer_from_context(self.services, self.name, query, context)

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

    def close(self) -> None:
        """Nothing to release: the method reads through the engine's store."""


def numbered_facts(facts: Sequence[Candidate], shown: Sequence[Row]) -> list[Row]:
    """The facts as numbered rows, each with the numbers of the shown passages it comes from,
    so the model can follow a chain of facts to the passages that state them."""
    return [{"ref": n, "id": c.id, "fact": c.sentence, "score": round(c.score, 4),
             "sources": source_refs(c.chunk_ids, shown, key="chunk_id")}
            for n, c in enumerate(facts, 1)]


def facts_block(rows: Sequence[Row]) -> str:
    """`-----Facts-----` with one short numbered fact a line and its passages."""
    lines = [fact_line(row["ref"], row["fact"], row["sources"]) for row in rows]
    return "-----Facts-----\n" + "\n".join(lines)


def _extra(found: HopsRetrieval) -> dict[str, list[Row]]:
    """What the retrieval did, for `--show-context` and for debugging a ranking."""
    extra: dict[str, list[Row]] = {
        "Mentions": [{"text": m} for m in found.mentions],
        "Entities": [{k: row[k] for k in ("mention", "id", "name", "score")}
                     for row in found.entity_hits],
    }
    if found.follow_up:
        extra["Follow-up"] = [{"query": found.follow_up}]
    if found.rerank is not None:
        extra["Rerank"] = [{"parsed": found.rerank.parsed, "thought": found.rerank.thought,
                            "chosen": [c.id for c in found.chosen]}]
    return extra
