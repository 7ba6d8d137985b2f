"""Fast extraction of a run's whole input in two passes, holding one window of parses at a time.

Pass 1 (`CorpusRun.decided`) parses every chunk into the parse cache on disk and keeps compact
counts of the whole input (no sentence), then walks the cached parses again for the summed
statement weights, and decides: kept terms, types, names, pruning, and the names each document
holds (what alias folding reads). Pass 2 (`CorpusRun.extractions`) builds one batch's
extractions, verbatim sentences and all, from its own cached parses and those decisions. The
output is the one deciding over all parses held at once gave.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from graphrag_neo4j.indexing.extraction.fast.decisions import Decisions, EdgeWeights, TermCounts
from graphrag_neo4j.indexing.extraction.fast.extraction import collector_paused
from graphrag_neo4j.indexing.extraction.fast.parse_cache import ParseCache
from graphrag_neo4j.indexing.extraction.fast.parsing import (
    WINDOW_CHUNKS,
    NlpLoader,
    Progress,
    parsed_windows,
)
from graphrag_neo4j.indexing.extraction.names import junk_reason
from graphrag_neo4j.indexing.input.limits import too_long
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction, EntityMention
from graphrag_neo4j.settings import FastExtractionSettings


@dataclass(frozen=True)
class CorpusRun:
    """What pass 1 decided over the input, and where each chunk's parse is cached."""

    decisions: Decisions
    parse_keys: Mapping[str, str]  # chunk id -> its parse's key in the cache
    refused: Mapping[str, str]  # document id -> why it was not parsed (its language)
    # Per document of the input, the names (and types) it holds that a batch may write,
    # under its first chunk's id: alias folding reads them.
    scope: list[ChunkExtraction]
    cache_dir: Path

    @classmethod
    def decided(
        cls,
        load_nlp: NlpLoader,
        chunks: Sequence[Chunk],
        refused: Mapping[str, str],
        settings: FastExtractionSettings,
        cache_dir: Path,
        max_name_words: int,
        on_chunk: Progress = None,
    ) -> CorpusRun:
        """Pass 1 over the input's `chunks` (those of `refused` documents are not parsed)."""
        readable = [c for c in chunks if c.document_id not in refused]
        cache = ParseCache(cache_dir, settings)
        try:
            counts, keys = TermCounts(), {}
            for window in parsed_windows(load_nlp, readable, settings, on_chunk, cache,
                                          WINDOW_CHUNKS):
                with collector_paused():
                    for text, terms in window:
                        keys[terms.chunk_id] = cache.key(text)
                        counts.add(terms)
            weights = EdgeWeights(counts.frequent(settings), settings)
            for start in range(0, len(readable), WINDOW_CHUNKS):
                part = readable[start : start + WINDOW_CHUNKS]
                found = cache.get_keyed(keys[c.id] for c in part)
                with collector_paused():
                    for chunk in part:
                        weights.add(found[keys[chunk.id]], chunk.id)
        finally:
            cache.close()
        decisions = Decisions.made(counts, weights)
        scope = corpus_scope(decisions, weights.by_chunk, max_name_words)
        return cls(decisions, keys, dict(refused), scope, cache_dir)

    def covers(self, chunks: Sequence[Chunk]) -> bool:
        """Whether every one of `chunks` was in the input this run decided over."""
        return all(c.id in self.parse_keys or c.document_id in self.refused for c in chunks)

    def extractions(self, chunks: Sequence[Chunk]) -> list[ChunkExtraction]:
        """Pass 2: the extraction of each of `chunks`, from its cached parse."""
        settings = self.decisions.settings
        cache = ParseCache(self.cache_dir, settings)
        try:
            found = cache.get_keyed(self.parse_keys[c.id] for c in chunks
                                    if c.document_id not in self.refused)
        finally:
            cache.close()
        result = []
        with collector_paused():
            for chunk in chunks:
                reason = self.refused.get(chunk.document_id)
                if reason is not None:
                    result.append(ChunkExtraction(chunk.id, refused_reason=reason))
                    continue
                terms = dataclasses.replace(found[self.parse_keys[chunk.id]], chunk_id=chunk.id)
                result.append(self.decisions.extraction(terms))
        return result


def corpus_scope(
    decisions: Decisions, by_chunk: Mapping[str, set[str]], max_name_words: int
) -> list[ChunkExtraction]:
    """Each chunk's surviving names a batch would not refuse, as one extraction (alias folding
    groups them by document, and asks which names a chunk holds together)."""
    scope = []
    for chunk_id, keys in by_chunk.items():
        entities = [EntityMention(chunk_id, name, entity_type, "")
                    for name, entity_type in decisions.entities_of(keys)
                    if not too_long(name) and junk_reason(name, max_name_words) is None]
        scope.append(ChunkExtraction(chunk_id, entities=entities))
    return scope
