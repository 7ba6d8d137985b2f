"""Chunks -> their terms with spaCy: in this process, or in forked workers for a long input."""

from __future__ import annotations

import dataclasses
import multiprocessing
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

from graphrag_neo4j.indexing.extraction.fast.nlp_model import lemmatizer
from graphrag_neo4j.indexing.extraction.fast.terms import ChunkTerms, chunk_terms
from graphrag_neo4j.indexing.input.chunking import text_after_overlap
from graphrag_neo4j.indexing.input.prose import ProseMask
from graphrag_neo4j.settings import FastExtractionSettings

if TYPE_CHECKING:
    from spacy.language import Language

    from graphrag_neo4j.indexing.extraction.fast.parse_cache import ParseCache
    from graphrag_neo4j.indexing.records import Chunk

# Below this many chunks, forking parser workers costs more than it saves.
MIN_CHUNKS_FOR_WORKERS = 16
# Chunks parsed (or read from the cache) and handed on together: what a run holds parsed at once.
WINDOW_CHUNKS = 256
Progress = Callable[[int], None] | None
# Loads the spaCy pipeline: called only when some text is left to parse, so a re-run whose
# parses are all cached never imports spaCy.
NlpLoader = Callable[[], "Language"]
_Batch = list[tuple[str, str]]  # (chunk id, text)
# A line break between two words, and a run of spaces. Hard-wrapped text (most plain-text books)
# breaks a line every dozen words: each break becomes a whitespace token that costs a parse step,
# and a name wrapped across lines ("Tiny\nTim") is read as two.
_LINE_BREAK = re.compile(r"(?<=\S)[ \t]*\r?\n[ \t]*(?=\S)")
_SPACE_RUN = re.compile(r"(?<=\S)[ \t]{2,}(?=\S)")
# A line that opens a list item, quote, table row or heading: the break before it is structure.
_BLOCK_START = re.compile(r"[-*+>|#]|\d+[.)][ \t]")
_TRAILING_SPACE = re.compile(r"[ \t]+(?=\r?\n|$)")
# Two or more hyphens touching a word: a dash typed in ASCII (Project Gutenberg texts). spaCy
# keeps "him----Yes" or "voice--" as one token, which became an entity name.
# Inline code is matched first and kept: `--all` is an option, not a dash.
_ASCII_DASH = re.compile(r"(`[^`\n]*`)|(?<=[^\s-])-{2,}|-{2,}(?=[^\s-])")

# What a forked worker parses with: set by its initializer, inherited from the parent by fork.
_worker: tuple[Language, FastExtractionSettings] | None = None


def parse_chunks(
    load_nlp: NlpLoader,
    chunks: Sequence[Chunk],
    settings: FastExtractionSettings,
    on_chunk: Progress = None,
    cache: ParseCache | None = None,
) -> list[ChunkTerms]:
    """Every chunk's terms, in chunk order; `on_chunk` hears how many chunks each step parsed.
    With a `cache`, texts parsed before are read from it and only the others parsed."""
    windows = parsed_windows(load_nlp, chunks, settings, on_chunk, cache)
    return [terms for window in windows for _, terms in window]


def parse_texts(
    load_nlp: NlpLoader,
    pairs: Sequence[tuple[str, str]],
    settings: FastExtractionSettings,
    cache: ParseCache | None = None,
) -> list[ChunkTerms]:
    """The terms of each (chunk id, text to parse), in order: read from `cache`, else parsed
    (as `settings.processes` says) and stored; texts as `iter_parsed_texts` gives them."""
    with _Parser(load_nlp, settings) as parse:
        return [terms for _, terms in _parsed_window(list(pairs), parse, settings, None, cache)]


def parsed_windows(
    load_nlp: NlpLoader,
    chunks: Sequence[Chunk],
    settings: FastExtractionSettings,
    on_chunk: Progress = None,
    cache: ParseCache | None = None,
    window: int = WINDOW_CHUNKS,
) -> Iterator[list[tuple[str, ChunkTerms]]]:
    """Each chunk's parsed text and terms, in chunk order, `window` chunks at a time, so a long
    input is never held parsed whole. With a `cache`, texts parsed before are read from it and
    the others parsed and stored window by window."""
    texts = iter_parsed_texts(chunks)
    with _Parser(load_nlp, settings) as parse:
        for start in range(0, len(chunks), window):
            pairs = [(chunk.id, next(texts)) for chunk in chunks[start : start + window]]
            yield _parsed_window(pairs, parse, settings, on_chunk, cache)


def _parsed_window(
    pairs: _Batch,
    parse: _Parser,
    settings: FastExtractionSettings,
    on_chunk: Progress,
    cache: ParseCache | None,
) -> list[tuple[str, ChunkTerms]]:
    known = cache.get_many([text for _, text in pairs]) if cache is not None else {}
    # Each distinct text not cached is parsed once, whichever chunks share it.
    todo = list({text: (chunk_id, text) for chunk_id, text in reversed(pairs)
                 if text not in known}.values())[::-1]
    if len(todo) < len(pairs) and on_chunk is not None:
        on_chunk(len(pairs) - len(todo))
    fresh: dict[str, ChunkTerms] = {}
    for batch in parse(_batches(todo, settings.batch_size), pipe_processes(settings, len(todo))):
        fresh.update((text, terms) for (_, text), terms in zip(todo[len(fresh):], batch,
                                                               strict=False))
        if on_chunk is not None:
            on_chunk(len(batch))
    if cache is not None and fresh:
        cache.put_many(fresh)
    found = {**known, **fresh}
    return [(text, dataclasses.replace(found[text], chunk_id=chunk_id))
            for chunk_id, text in pairs]


def pipe_processes(settings: FastExtractionSettings, chunks: int) -> int:
    """Worker processes for parsing `chunks` chunks: the setting, or 1 for a small input."""
    return max(1, settings.processes) if chunks >= MIN_CHUNKS_FOR_WORKERS else 1


def parsed_texts(chunks: Sequence[Chunk]) -> list[str]:
    """The text parsed of each chunk (see `iter_parsed_texts`)."""
    return list(iter_parsed_texts(chunks))


def iter_parsed_texts(chunks: Iterable[Chunk]) -> Iterator[str]:
    """The text parsed of each chunk: its overlap read once, its prose only (no code blocks,
    URLs, tables or front matter; inline code kept in its backticks), line wraps and space runs
    folded.

    Each sentence is parsed, and counted as support, once: not again in the next window.
    Paragraph breaks stay, so no sentence runs across them. A code block spanning chunks is
    masked in all of them: each document's chunks share one mask, read in order.
    """
    masks: dict[str, ProseMask] = {}
    previous: Chunk | None = None
    for chunk in chunks:
        text = text_after_overlap(previous, chunk)
        previous = chunk
        prose = masks.setdefault(chunk.document_id, ProseMask(keep_inline_code=True)).prose(text)
        yield unwrapped(_TRAILING_SPACE.sub("", prose))


def unwrapped(text: str) -> str:
    """`text` with its line wraps and runs of spaces folded into one space and ASCII dashes
    ("--") made an em dash between spaces.

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

    dashed = _ASCII_DASH.sub(lambda m: m.group(1) or " \u2014 ", _LINE_BREAK.sub(fold, text))
    return _SPACE_RUN.sub(" ", dashed)


def _batches(pairs: _Batch, size: int) -> list[_Batch]:
    step = max(1, size)
    return [pairs[start : start + step] for start in range(0, len(pairs), step)]


class _Parser:
    """Parses batches of (chunk id, text) in this process, or in a pool of forked workers opened
    the first time a window is worth them and kept for the windows after it; the pipeline is
    loaded the first time a window has anything to parse."""

    def __init__(self, load_nlp: NlpLoader, settings: FastExtractionSettings) -> None:
        self._load_nlp, self._settings = load_nlp, settings
        self._loaded: Language | None = None
        self._pool: ProcessPoolExecutor | None = None

    @property
    def _nlp(self) -> Language:
        if self._loaded is None:
            self._loaded = self._load_nlp()
        return self._loaded

    def __enter__(self) -> _Parser:
        return self

    def __exit__(self, *_: object) -> None:
        if self._pool is not None:
            self._pool.shutdown()

    def __call__(self, batches: list[_Batch], processes: int) -> Iterator[list[ChunkTerms]]:
        if not batches:
            return iter(())
        if processes == 1:
            return (_parse(self._nlp, self._settings, batch) for batch in batches)
        if self._pool is None:
            # Workers parse and reduce to terms themselves: shipping whole parsed Docs back to
            # this process (as `nlp.pipe(n_process=...)` does) costs serialising them.
            context = multiprocessing.get_context("fork")
            self._pool = ProcessPoolExecutor(processes, context, _start_worker,
                                             (self._nlp, self._settings))
        return self._pool.map(_parse_in_worker, batches)


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
