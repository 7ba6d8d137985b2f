"""Runs a query method, grounds and checks its answer, and adds what it cost (LLM calls and
tokens)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace

from graphrag_neo4j.citations import cited_rows
from graphrag_neo4j.llm.calls.reply_guards import without_repeats
from graphrag_neo4j.llm.calls.usage import usage_scope
from graphrag_neo4j.query.answers.grounding import EntityFinder, GraphNames, ground_answer
from graphrag_neo4j.query.answers.shape import checked_fit
from graphrag_neo4j.query.answers.source_places import place_sources
from graphrag_neo4j.query.base import Answer, Note, NoteKind, Query, QueryMethod, Services

ANSWER_LOOPED = ("The answer began repeating itself: it was stopped and the repeats were"
                 " removed.")


async def _measured(services: Services, run: Callable[[], Awaitable[Answer]]) -> Answer:
    services.store  # noqa: B018 (connecting first turns an absent server into one clear sentence)
    # A scope, not a before/after difference of the totals: queries may run concurrently.
    with usage_scope() as spent:
        answer = await run()
    answer.llm_calls = spent.calls
    answer.prompt_tokens = spent.prompt_tokens
    answer.completion_tokens = spent.completion_tokens
    return answer


async def run_query(
    services: Services, method: QueryMethod, query: Query,
    find_entities: EntityFinder | None = None,
    graph_names: GraphNames | None = None,
) -> Answer:
    """Answer the query, then ground it (`search.grounding`; names found by `find_entities`,
    citations only without it; `graph_names` tells which names the graph holds) and check that
    it can answer the question (`search.answer_check`); the Answer says how many LLM calls and
    tokens it took."""
    answer = _unlooped(_noted(query, await _measured(services, lambda: method.answer(query))))
    # Named-entity recognition and the store lookup block: off the event loop.
    grounded = await asyncio.to_thread(
        ground_answer, answer, query.question, query.search.grounding, find_entities,
        graph_names,
    )
    checked = checked_fit(grounded, query.question, query.search.answer_check)
    return await _cited(services, checked)


async def _cited(services: Services, answer: Answer) -> Answer:
    """The answer with its passages' places and the rows its text cites, as data."""
    await place_sources(services.store, answer)
    answer.citations = cited_rows(answer)
    return answer


def _unlooped(answer: Answer) -> Answer:
    """The answer without what the model wrote over and over (a small model decoding greedily
    may repeat itself until its token limit; a streamed reply is stopped there), with a note."""
    text = without_repeats(answer.text)
    if text == answer.text:
        return answer
    answer.notes.append(Note(NoteKind.ANSWER_LOOPED, ANSWER_LOOPED))
    return replace(answer, text=text)


async def retrieve_only(services: Services, name: str, method: QueryMethod, query: Query) -> Answer:
    """The context the method would answer from, without the answer call."""

    async def context_only() -> Answer:
        # The same context the answer reads: a method has one retrieval pipeline.
        context = await method.build_context(query)
        return Answer.from_context(name, "", context)

    return await _cited(services, _noted(query, await _measured(services, context_only)))


def _noted(query: Query, answer: Answer) -> Answer:
    """The answer with the query's own notes (deprecated option names) first."""
    answer.notes[:0] = [Note.info(text) for text in query.notes]
    return answer
