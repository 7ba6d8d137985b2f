"""Fast extraction: chunks -> spaCy terms -> typed mentions and co-occurrence relations, pruned."""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from graphrag_neo4j.indexing.extraction.fast.decisions import Decisions, EdgeWeights, TermCounts
from graphrag_neo4j.indexing.extraction.fast.parsing import NlpLoader, Progress, parse_chunks
from graphrag_neo4j.indexing.extraction.fast.terms import ChunkTerms
from graphrag_neo4j.indexing.records import ChunkExtraction
from graphrag_neo4j.settings import FastExtractionSettings

if TYPE_CHECKING:
    from graphrag_neo4j.indexing.extraction.fast.parse_cache import ParseCache
    from graphrag_neo4j.indexing.records import Chunk

T = TypeVar("T")


def extract_fast(
    load_nlp: NlpLoader,
    chunks: Sequence[Chunk],
    settings: FastExtractionSettings,
    on_chunk: Progress = None,
    cache: ParseCache | None = None,
) -> list[ChunkExtraction]:
    """Parse the chunks (in worker processes for a long input; with a `cache`, only those not
    parsed before) and build pruned extractions."""
    parsed = parse_chunks(load_nlp, chunks, settings, on_chunk, cache)
    with collector_paused():
        return extractions_from_terms(parsed, settings)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a burst of small acyclic objects is built.

    Each few hundred allocations start a collection, and the older generations it reaches walk
    every object of the process, the loaded models' hundreds of thousands included: that was
    60% of building the book's extractions. Nothing built here forms a cycle.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


async def extract_fast_in_thread(
    load_nlp: NlpLoader,
    chunks: Sequence[Chunk],
    settings: FastExtractionSettings,
    on_chunk: Progress = None,
    cache: ParseCache | None = None,
) -> list[ChunkExtraction]:
    """`extract_fast` in a thread of its own (see `in_own_thread`)."""
    return await in_own_thread(extract_fast, load_nlp, chunks, settings, on_chunk, cache)


async def in_own_thread(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)` in a thread of its own, so the event loop stays free.

    Not asyncio's executor: a parser worker forked from an executor thread exits with code 1
    (the executor's exit hook joins that very thread in the child).
    """
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def run() -> None:
        try:
            result = work(*args)
        except BaseException as error:  # handed to the awaiting coroutine, not lost in a thread
            loop.call_soon_threadsafe(done.set_exception, error)
        else:
            loop.call_soon_threadsafe(done.set_result, result)

    threading.Thread(target=run, name="fast-extraction", daemon=True).start()
    return await done


def extractions_from_terms(
    parsed: Sequence[ChunkTerms], settings: FastExtractionSettings
) -> list[ChunkExtraction]:
    """Keep frequent terms, type them by vote, relate co-occurring ones, prune, emit mentions."""
    counts = TermCounts()
    for chunk in parsed:
        counts.add(chunk)
    weights = EdgeWeights(counts.frequent(settings), settings)
    for chunk in parsed:
        weights.add(chunk, "")
    decisions = Decisions.made(counts, weights)
    return [decisions.extraction(chunk) for chunk in parsed]
