"""Chunks -> their terms with spaCy: in this process, or in forked workers for a long input."""

from __future__ import annotations

import dataclasses
import multiprocessing
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

from graphrag_neo4j.indexing.extraction.fast.nlp_model import lemmatizer
from graphrag_neo4j.indexing.extraction.fast.terms import ChunkTerms, chunk_terms
from graphrag_neo4j.indexing.input.chunking import texts_read_once
from graphrag_neo4j.indexing.input.prose import ProseMask
from graphrag_neo4j.settings import FastExtractionSettings

if TYPE_CHECKING:
    from spacy.language import Language

    from graphrag_neo4j.indexing.extraction.fast.parse_cache import ParseCache
    from graphrag_neo4j.indexing.records import Chunk

# Below this many chunks, forking parser workers costs more than it saves.
MIN_CHUNKS_FOR_WORKERS = 16
Progress = Callable[[int], None] | None
_Batch = list[tuple[str, str]]  # (chunk id, text)
# A line break between two words, and a run of spaces. Hard-wrapped text (most plain-text books)
# breaks a line every dozen words: each break becomes a whitespace token that costs a parse step,
# and a name wrapped across lines ("Tiny\nTim") is read as two.
_LINE_BREAK = re.compile(r"(?<=\S)[ \t]*\r?\n[ \t]*(?=\S)")
_SPACE_RUN = re.compile(r"(?<=\S)[ \t]{2,}(?=\S)")
# A line that opens a list item, quote, table row or heading: the break before it is structure.
_BLOCK_START = re.compile(r"[-*+>|#]|\d+[.)][ \t]")
_TRAILING_SPACE = re.compile(r"[ \t]+(?=\r?\n|$)")

# What a forked worker parses with: set by its initializer, inherited from the parent by fork.
_worker: tuple[Language, FastExtractionSettings] | None = None


def parse_chunks(
    load_nlp: Callable[[], Language],
    chunks: Sequence[Chunk],
    settings: FastExtractionSettings,
    on_chunk: Progress = None,
    cache: ParseCache | None = None,
) -> list[ChunkTerms]:
    """Every chunk's terms, in chunk order; `on_chunk` hears how many chunks each step parsed.
    With a `cache`, texts parsed before are read from it and only the others parsed; the
    pipeline is loaded (`load_nlp`) only when some text is left to parse."""
    pairs = [(chunk.id, text) for chunk, text in zip(chunks, parsed_texts(chunks), strict=True)]
    known = cache.get_many([text for _, text in pairs]) if cache is not None else {}
    # Each distinct text not cached is parsed once, whichever chunks share it.
    todo = list({text: (chunk_id, text) for chunk_id, text in reversed(pairs)
                 if text not in known}.values())[::-1]
    if len(todo) < len(pairs) and on_chunk is not None:
        on_chunk(len(pairs) - len(todo))
    fresh: dict[str, ChunkTerms] = {}
    processes = pipe_processes(settings, len(todo))
    # A re-run of an unchanged corpus parses nothing: it need not import or load spaCy.
    batches = _batches(todo, settings.batch_size)
    parsed = _parsed_batches(load_nlp(), batches, settings, processes) if todo else iter(())
    for batch in parsed:
        fresh.update((text, terms) for (_, text), terms in zip(todo[len(fresh):], batch,
                                                               strict=False))
        if on_chunk is not None:
            on_chunk(len(batch))
    if cache is not None and fresh:
        cache.put_many(fresh)
    found = {**known, **fresh}
    return [dataclasses.replace(found[text], chunk_id=chunk_id) for chunk_id, text in pairs]


def pipe_processes(settings: FastExtractionSettings, chunks: int) -> int:
    """Worker processes for parsing `chunks` chunks: the setting, or 1 for a small input."""
    return max(1, settings.processes) if chunks >= MIN_CHUNKS_FOR_WORKERS else 1


def parsed_texts(chunks: Sequence[Chunk]) -> list[str]:
    """The text parsed of each chunk: its overlap read once, its prose only (no code, URLs,
    tables or front matter), line wraps and space runs folded.

    Each sentence is parsed, and counted as support, once: not again in the next window.
    Paragraph breaks stay, so no sentence runs across them. A code block spanning chunks is
    masked in all of them: each document's chunks share one mask, read in order.
    """
    masks: dict[str, ProseMask] = {}
    texts = []
    for chunk, text in zip(chunks, texts_read_once(chunks), strict=True):
        prose = masks.setdefault(chunk.document_id, ProseMask()).prose(text)
        texts.append(unwrapped(_TRAILING_SPACE.sub("", prose)))
    return texts


def unwrapped(text: str) -> str:
    """`text` with its line wraps and runs of spaces folded into one space.

    A break before a list item, quote, table row or heading, or after a heading, stays; a word
    broken after its hyphen ("counting-\\nhouse") joins without a space.
    """

    def fold(wrap: re.Match[str]) -> str:
        start, end = wrap.start(), wrap.end()
        heading = text.startswith("#", text.rfind("\n", 0, start) + 1)
        if heading or _BLOCK_START.match(text, end):
            return wrap.group()
        hyphenated = text[start - 1] == "-" and text[start - 2 : start - 1].isalnum()
        return "" if hyphenated and text[end].isalnum() else " "

    return _SPACE_RUN.sub(" ", _LINE_BREAK.sub(fold, text))


def _batches(pairs: _Batch, size: int) -> list[_Batch]:
    step = max(1, size)
    return [pairs[start : start + step] for start in range(0, len(pairs), step)]


def _parsed_batches(
    nlp: Language, batches: list[_Batch], settings: FastExtractionSettings, processes: int
) -> Iterator[list[ChunkTerms]]:
    if processes == 1:
        yield from (_parse(nlp, settings, batch) for batch in batches)
        return
    # Workers parse and reduce to terms themselves: shipping whole parsed Docs back to this
    # process (as `nlp.pipe(n_process=...)` does) costs serialising them and a busy parent.
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(processes, context, _start_worker, (nlp, settings)) as pool:
        yield from pool.map(_parse_in_worker, batches)


def _start_worker(nlp: Language, settings: FastExtractionSettings) -> None:
    global _worker
    _worker = (nlp, settings)


def _parse_in_worker(batch: _Batch) -> list[ChunkTerms]:
    assert _worker is not None, "the pool's initializer sets the worker's pipeline"
    return _parse(*_worker, batch)


def _parse(nlp: Language, settings: FastExtractionSettings, batch: _Batch) -> list[ChunkTerms]:
    lemma = lemmatizer(nlp)
    docs = nlp.pipe((text for _, text in batch), batch_size=len(batch))
    return [
        chunk_terms(chunk_id, doc, settings, lemma)
        for (chunk_id, _), doc in zip(batch, docs, strict=True)
    ]
