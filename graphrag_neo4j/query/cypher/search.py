"""Cypher search (Text2Cypher): the LLM writes one read-only query; its rows answer exactly."""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field, replace
from typing import Any

from graphrag_neo4j.citations import strip_citations
from graphrag_neo4j.query.answers.grounded_stream import grounded_sink
from graphrag_neo4j.query.answers.passages import NO_DATA, answer_from_context
from graphrag_neo4j.query.base import Answer, Note, Query, Services
from graphrag_neo4j.query.context import Row, SearchContext, TableBuilder, history_block
from graphrag_neo4j.query.cypher.asked import asks_for_names
from graphrag_neo4j.query.cypher.attempt import (
    Attempt,
    attempt_query,
    attempts_record,
    generated_reader,
)
from graphrag_neo4j.query.cypher.names import describe
from graphrag_neo4j.query.cypher.rewrites.registry import REWRITES, as_written, repairs
from graphrag_neo4j.query.cypher.rewrites.rewrite import Rewrite, Situation
from graphrag_neo4j.query.cypher.schema import GraphSchema, SchemaCache
from graphrag_neo4j.query.cypher.writing import repair_query, write_query
from graphrag_neo4j.query.local.search import LocalSearch
from graphrag_neo4j.runtime.resources import load_prompt

RESULTS, CYPHER = "Results", "Cypher"  # the context's result table; the query and its fate
ROWS_LISTED = ("cypher: the model's answer held nothing but citations, so the result rows are"
               " listed as the answer.")


def results_context(attempt: Attempt, record: dict[str, Any], budget_tokens: int) -> SearchContext:
    """The query's rows as a numbered table, with the query itself among the sources."""
    columns = list(dict.fromkeys(key for row in attempt.rows for key in row))
    table = TableBuilder(RESULTS, columns, budget_tokens)
    table.fill(attempt.rows, lambda row: [_cell(row.get(column)) for column in columns])
    notes = [] if len(table.rows) == len(attempt.rows) else [
        f"cypher: {len(attempt.rows) - len(table.rows)} result rows did not fit the answer prompt."
    ]
    return SearchContext(text=table.render(), sources={RESULTS: table.rows, CYPHER: [record]},
                         notes=notes)


def rows_answer(rows: list[Row]) -> str:
    """The result rows the answer prompt held, each citing itself: what replaces a reply that
    says nothing but citations."""
    if not rows:
        return "The query found no rows."
    lines = [", ".join(_cell(value) for key, value in row.items() if key != "ref")
             + f" [Data: {RESULTS} ({row['ref']})]" for row in rows]
    return "\n".join(["The query found:", *lines])


def _repair_notes(attempts: list[Attempt]) -> list[str]:
    """What the notes say of each query that followed another (a refusal or an error goes
    unsaid)."""
    notes = []
    for before, after in itertools.pairwise(attempts):
        why = _why_replaced(before, "first query" if before is attempts[0] else "query")
        if after.rewrite:
            notes.append(f"cypher: {why}, so {after.rewrite}.")
        elif after.repeated and why:
            notes.append(f"cypher: {why}; the corrected query the model wrote was the same, so"
                         " it was not run again.")
        elif why:
            notes.append(f"cypher: {why}, so one corrected query was written and run.")
    return notes


def _same_query(one: str, other: str) -> bool:
    """Whether two queries differ in spacing at most."""
    return one.split() == other.split()


def _answering(attempts: list[Attempt]) -> Attempt:
    """The attempt whose rows answer: the last, unless a query that counted 1 on every row was
    replaced by one that found nothing or did not run (its rows are then the better answer)."""
    last = attempts[-1]
    if last.answers:
        return last
    return next((a for a in reversed(attempts) if a.answers and a.counts_each_once), last)


def _why_replaced(attempt: Attempt, which: str) -> str:
    """Why a query was replaced: found nothing, counted 1 everywhere or named what the graph
    lacks ('' otherwise)."""
    if attempt.counts_each_once:
        return f"the {which} counted 1 on every row"
    if attempt.nameless:
        return f"the {which} found only numbers where the question asks which or who"
    if attempt.status == "ran":
        return f"the {which} found {'only zeros' if attempt.rows else 'no rows'}"
    if attempt.status == "unknown":
        return f"the {which} named what the graph does not have ({describe(attempt.unknown)})"
    return ""


def _cell(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, default=str,
                                                           ensure_ascii=False)


@dataclass
class CypherSearch:
    """Live schema + prompts/query/cypher/generate.txt (examples in examples.txt) -> a guarded
    read-only query -> its rows + prompts/query/cypher/answer.txt; local search when no query
    runs."""

    services: Services
    name = "cypher"
    description = (
        "Counting, listing and path questions (how many, which, who is connected to whom):"
        " the LLM writes one read-only Cypher query from the graph's schema, and its rows"
        " answer exactly; falls back to local search when no safe query runs."
    )
    streams = True
    needs_llm = True
    ranks_documents = False
    # The rewrites with no LLM call, in order (registry.REWRITES; a benchmark leaves some out).
    rewrites: tuple[Rewrite, ...] = REWRITES
    _local: LocalSearch | None = field(default=None, init=False)
    _schemas: SchemaCache = field(default_factory=SchemaCache, init=False)

    async def build_context(self, query: Query) -> SearchContext:
        """Write, guard and run the query (one repair when it is refused, fails, names what
        the graph does not have or finds no rows); its rows, or local search's context."""
        settings = query.search.cypher
        schema = await asyncio.to_thread(self._schemas.get, self.services.store,
                                         settings.schema_samples)
        written = await write_query(self.services, query, schema, self.rewrites)
        attempts = [await self._attempt(written, query)]
        if settings.repair:
            attempts += await self._repairs(attempts[0], query, schema)
        attempt = _answering(attempts)
        record = attempts_record(attempts, attempt)
        if attempt.rows or not settings.fallback:
            context = results_context(attempt, record, settings.context_tokens)
            context.notes[:0] = _repair_notes(attempts)
            if attempt is not attempts[-1]:
                context.notes.append("cypher: the corrected query found nothing, so the rows"
                                     " of the one before it answer.")
            return context
        context = await self.local.build_context(query)
        why = attempt.reason or "the query found no rows"
        context.notes.insert(0, f"cypher: no query answered ({attempt.status}: {why});"
                                " answered with local search instead.")
        context.sources[CYPHER] = [record]
        return context

    async def _repairs(self, first: Attempt, query: Query, schema: GraphSchema) -> list[Attempt]:
        """What followed a first query that was refused, failed, found nothing, counted 1
        on every row or found only numbers for a question asking which or who: the repairs of
        `rewrites` (registry.REWRITES), each run when the query before it is one it is for and
        it changes that query, then, if still nothing, one corrected query."""
        attempts: list[Attempt] = []
        last = first
        for rewrite in repairs(self.rewrites):
            if not rewrite.when.holds(last):
                continue
            situation = Situation(query.question, schema, self.services.store, last)
            text = await rewrite.rewrite(last.query, situation)
            if text is None or text == last.query:
                continue
            text = await as_written(text, replace(situation, attempt=None), self.rewrites)
            last = await self._attempt(text, query)
            last.rewrite = rewrite.note
            attempts.append(last)
        if not last.rows or last.found_nothing or last.counts_each_once or last.nameless:
            fixed = await repair_query(self.services, query, schema, last, self.rewrites)
            # The same query again reads the same rows: its fate is taken, not run again.
            attempts.append(replace(last, rewrite="", repeated=True) if _same_query(
                fixed, last.query) else await self._attempt(fixed, query))
        return attempts

    async def _attempt(self, text: str, query: Query) -> Attempt:
        store = generated_reader(self.services.store)
        attempt = await attempt_query(store, text, query.search.cypher)
        attempt.nameless = attempt.numbers_only and asks_for_names(query.question)
        return attempt

    @property
    def local(self) -> LocalSearch:
        """The fallback, made on first use."""
        if self._local is None:
            self._local = LocalSearch(self.services)
        return self._local

    async def answer(self, query: Query) -> Answer:
        """Build the context, then one answer call over the rows (or local search's tables)."""
        context = await self.build_context(query)
        if RESULTS not in context.sources:
            answer = await answer_from_context(self.services, self.local.name, query, context)
            answer.method = self.name
            return answer
        prompt = load_prompt("query/cypher/answer", self.services.settings.prompts_dir).format(
            response_type=query.response_type, history=history_block(query.history),
            query=context.sources[CYPHER][0]["query"], context=context.text or NO_DATA,
            question=query.question,
        )
        grounded = grounded_sink(query, context.sources)
        text = await self.services.llm.complete(prompt, stage="cypher_answer",
                                                on_token=grounded)
        if grounded is not None:
            grounded.finish()
        listed = not strip_citations(text).strip()
        if listed:
            text = rows_answer(context.sources[RESULTS])
            if query.on_token is not None:
                query.on_token("\n" + text)
        answer = Answer.from_context(self.name, text, context)
        if listed:
            answer.notes.append(Note.info(ROWS_LISTED))
        return answer

    async def rank_documents(self, query: Query, k: int) -> list[str]:  # noqa: ARG002
        """Cypher search answers from query rows, not passages: it ranks no documents."""
        return []

    def close(self) -> None:
        """Nothing to release: the method reads through the engine's store."""
