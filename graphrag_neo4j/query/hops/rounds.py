"""Hops' two optional LLM rounds over a retrieval: the rerank chooses facts, the follow-up asks
for the next hop. Each changes the ranking only after its first passages, and a failed call
or an unusable reply leaves the ranking as it was, with a note."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.query.context import Row
from graphrag_neo4j.query.hops.follow_up import follow_up_mentions, follow_up_query
from graphrag_neo4j.query.hops.placing import joined_order, placed_passages
from graphrag_neo4j.query.hops.ranking import passages_after_rerank, shown_to_reranker
from graphrag_neo4j.query.hops.rerank import rerank_relations
from graphrag_neo4j.query.hops.retrieval import HopsRetrieval
from graphrag_neo4j.runtime.errors import ModelError
from graphrag_neo4j.settings import SearchSettings

# Facts shown to the reranker from the same passages: the rest make room for other passages'.
RELATIONS_PER_PASSAGE_SHOWN = 2

Retrieve = Callable[[str, SearchSettings, Sequence[str]], Awaitable[HopsRetrieval]]
ReadTexts = Callable[[HopsRetrieval, list[str]], Awaitable[list[Row]]]


async def rerank_round(
    found: HopsRetrieval, question: str, llm: LLMCaller, search: SearchSettings,
    prompts_dir: Path | None,
) -> None:
    """Let the LLM choose among the candidates; their passages then come after the first
    `hops.rerank_keep`, which never move."""
    shown = shown_to_reranker(
        found.candidates, search.hops.rerank_candidates, RELATIONS_PER_PASSAGE_SHOWN
    )
    try:
        found.rerank = await rerank_relations(
            llm, question, shown, search.hops.rerank_select, prompts_dir
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


async def follow_up_round(
    found: HopsRetrieval, question: str, llm: LLMCaller, search: SearchSettings,
    retrieve: Retrieve, read_texts: ReadTexts, prompts_dir: Path | None,
    given: str | None = None,
) -> None:
    """Ask the LLM what the question still needs after the best passages (unless `given`),
    retrieve for the question with it, and place the best of those after the first
    passages."""
    try:
        found.follow_up = given if given is not None else await _ask(
            found, question, llm, search, read_texts, prompts_dir)
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
    second = await retrieve(f"{question} {found.follow_up}", once, names)
    keep, insert = search.hops.follow_up_keep, search.hops.follow_up_insert
    found.follow_up_added = placed_passages(found.chunk_order, second.chunk_order, keep, insert)
    found.chunk_order = joined_order(found.chunk_order, second.chunk_order, keep, insert)
    found.document_of = {**second.document_of, **found.document_of}


async def _ask(
    found: HopsRetrieval, question: str, llm: LLMCaller, search: SearchSettings,
    read_texts: ReadTexts, prompts_dir: Path | None,
) -> str:
    """The LLM's query for what the question still needs after the best passages."""
    read = await read_texts(found, found.chunk_order[: search.hops.follow_up_passages])
    return await follow_up_query(llm, question, read, prompts_dir)
