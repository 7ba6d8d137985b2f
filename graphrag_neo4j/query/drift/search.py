"""DRIFT search: a primer over the nearest community reports, local follow-ups, one reduce."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace

from graphrag_neo4j.citations import clean_citations
from graphrag_neo4j.query.answers.grounded_stream import CitationFilter
from graphrag_neo4j.query.answers.grounding import cited_refs
from graphrag_neo4j.query.answers.passages import NO_DATA, answer_from_context
from graphrag_neo4j.query.base import Answer, Note, Query, Services
from graphrag_neo4j.query.context import Row, SearchContext, history_block
from graphrag_neo4j.query.drift.primer import prime, primer_reports
from graphrag_neo4j.query.drift.steps import FollowUpQueue, Step, parse_step, reduce_context
from graphrag_neo4j.query.local.search import LocalSearch
from graphrag_neo4j.runtime.resources import load_prompt

NO_REPORTS = ("DRIFT found no community reports (build them with `graphrag-neo4j communities`);"
              " answered with local search.")
NOTHING_PRIMED = ("The primer found nothing relevant in the community reports nearest the question"
                  " (score 0 or no readable reply); answered with local search.")
CITATIONS_DROPPED = "Citations of rows that were not in the answer's context were removed."


@dataclass
class DriftRun:
    """What the primer and the follow-ups found; `fallback` says why local search answers."""

    reports: list[Row] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    contexts: list[SearchContext] = field(default_factory=list)
    fallback: str | None = None
    notes: list[str] = field(default_factory=list)

    def ranked_contexts(self, helpful_only: bool) -> list[SearchContext]:
        """The follow-ups' local contexts, the most helpful answer's first.

        The reduce reads only those whose answer helped (scored above 0): the rest is noise
        in a small model's window; document ranking keeps them all.
        """
        follow_ups = [step for step in self.steps if step.depth > 0]
        pairs = sorted(zip(follow_ups, self.contexts, strict=True), key=lambda p: -p[0].score)
        return [context for step, context in pairs if step.score > 0 or not helpful_only]


@dataclass
class DriftSearch:
    """Primer (reports) -> rounds of local follow-ups ranked by score -> reduce with citations."""

    services: Services
    name = "drift"
    description = (
        "Questions needing both the big picture and details: starts from the community reports"
        " nearest the question, answers follow-up questions with local search and combines the"
        " findings, with many LLM calls."
    )
    streams = True
    needs_llm = True
    ranks_documents = True
    _local: LocalSearch | None = field(default=None, init=False)

    @property
    def local(self) -> LocalSearch:
        """The local search each follow-up (and the fallback) runs."""
        if self._local is None:
            self._local = LocalSearch(self.services)
        return self._local

    def _prompt(self, name: str) -> str:
        return load_prompt(name, self.services.settings.prompts_dir)

    async def _follow(
        self, query: Query, question: str, depth: int, last_round: bool
    ) -> tuple[Step, SearchContext]:
        """A local search for the follow-up, then one call answering it from that context."""
        search = query.search
        local_query = replace(
            query.with_search(local={"context_tokens": search.drift.followup_tokens}),
            question=question,
        )
        context = await self.local.build_context(local_query)
        # The last round's follow-ups would never be asked: not writing them saves generation.
        asked_for = 0 if last_round else search.drift.k_followups
        prompt = self._prompt("query/drift/followup").format(
            followups=asked_for,
            question=query.question,
            context=context.text or NO_DATA,
            followup=question,
        )
        reply = await self.services.llm.complete(prompt, stage="drift_followup")
        return parse_step(reply, question, depth), context

    async def explore(self, query: Query, write_reports: bool = True) -> DriftRun:
        """Primer, then up to `drift.depth` rounds of the `drift.k_followups` best follow-ups.

        `write_reports` lets the primer have lazy community reports written (not when only
        retrieving: the primer then reads extractive summaries).
        """
        nearest = await primer_reports(self.services, query, write_reports)
        if not nearest.rows:
            return DriftRun(fallback=NO_REPORTS)
        primer, shown = await prime(self.services, query, nearest.rows)
        notes = nearest.notes(shown)
        if primer.score <= 0:
            return DriftRun(reports=shown, steps=[primer], fallback=NOTHING_PRIMED, notes=notes)
        run = DriftRun(reports=shown, steps=[primer], notes=notes)
        queue = FollowUpQueue.after_primer(query.question, primer)
        rounds = query.search.drift.depth
        for number in range(1, rounds + 1):
            batch = queue.take(query.search.drift.k_followups)
            if not batch:
                break
            done = await asyncio.gather(*(
                self._follow(query, f.question, f.depth, last_round=number == rounds)
                for f in batch
            ))
            for step, context in done:
                run.steps.append(step)
                run.contexts.append(context)
                queue.add_step(step)
        return run

    async def _context(self, query: Query, run: DriftRun) -> SearchContext:
        if run.fallback is not None:
            context = await self.local.build_context(query)
            context.notes = [run.fallback, *run.notes, *context.notes]
            return context
        context = reduce_context(
            run.steps, run.reports, run.ranked_contexts(helpful_only=True),
            query.search.drift.reduce_tokens,
            self.services.settings.extraction.fast.cooccurrence_predicate,
        )
        context.notes = [*run.notes, *context.notes]
        return context

    async def build_context(self, query: Query) -> SearchContext:
        """The reduce step's context (this runs the primer and follow-up LLM calls, but writes
        no lazy community report: the primer reads extractive summaries in their place)."""
        return await self._context(query, await self.explore(query, write_reports=False))

    async def answer(self, query: Query) -> Answer:
        """Explore, then one reduce call (streamed) citing only rows of its own context."""
        run = await self.explore(query)
        context = await self._context(query, run)
        if run.fallback is not None:
            answer = await answer_from_context(self.services, self.local.name, query, context)
            answer.method = self.name
            return answer
        prompt = self._prompt("query/drift/reduce").format(
            response_type=query.response_type,
            history=history_block(query.history),
            context=context.text,
            question=query.question,
        )
        known = cited_refs(context.sources)
        # DRIFT cleans its citations whatever search.grounding says: its stream does too.
        grounded = CitationFilter(query.on_token, known) if query.on_token else None
        text = await self.services.llm.complete(prompt, stage="drift_reduce", on_token=grounded)
        if grounded is not None:
            grounded.finish()
        cleaned = clean_citations(text, known)
        answer = Answer.from_context(self.name, cleaned, context)
        if cleaned != text:
            answer.notes.append(Note.info(CITATIONS_DROPPED))
        answer.sources["Findings"] = [
            {"question": s.question, "answer": s.answer, "score": s.score, "depth": s.depth}
            for s in run.steps
        ]
        return answer

    async def rank_documents(self, query: Query, k: int) -> list[str]:
        """Documents of the follow-ups' local contexts, the most helpful answer's first."""
        run = await self.explore(query.with_search(local={"top_chunks": max(k, 1)}))
        if run.fallback is not None:
            return await self.local.rank_documents(query, k)
        contexts = run.ranked_contexts(helpful_only=False)
        ranked = [doc for context in contexts for doc in context.ranked_document_ids]
        return list(dict.fromkeys(ranked))[:k]

    def close(self) -> None:
        """Close the local search the follow-ups ran, if any did."""
        if self._local is not None:
            self._local.close()
            self._local = None
