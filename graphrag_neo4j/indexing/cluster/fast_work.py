"""Fast extraction's work on a Ray worker: parse a partition's texts, count, weigh, extract.

Each task gets (chunk id, document id, text to parse) items, the texts the driver read as
`fast.parsing.iter_parsed_texts` gives them, so any cut of the input parses what one run
parses. Parses are read from and written to the worker's parse cache; the spaCy pipeline is
loaded once per worker process (`nlp_model.load_pipeline` keeps it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from graphrag_neo4j.indexing.cluster.tasks import Shared, held
from graphrag_neo4j.indexing.extraction.fast.decisions import Decisions, EdgeWeights, TermCounts
from graphrag_neo4j.indexing.extraction.fast.extraction import collector_paused
from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline
from graphrag_neo4j.indexing.extraction.fast.parse_cache import ParseCache
from graphrag_neo4j.indexing.extraction.fast.parsing import parse_texts
from graphrag_neo4j.indexing.extraction.fast.terms import ChunkTerms
from graphrag_neo4j.indexing.records import ChunkExtraction
from graphrag_neo4j.settings import FastExtractionSettings

Item = tuple[str, str, str]  # (chunk id, document id, text to parse)


def count_terms(settings: FastExtractionSettings, cache_dir: Path,
                items: Sequence[Item]) -> TermCounts:
    """Pass 1 over one partition: its term counts."""
    counts = TermCounts()
    with collector_paused():
        for terms in _terms(settings, cache_dir, items):
            counts.add(terms)
    return counts


def weigh_statements(settings: FastExtractionSettings, cache_dir: Path, items: Sequence[Item],
                     kept: Shared) -> EdgeWeights:
    """Pass 1's second walk over one partition: its statements' weights among the `kept` keys
    (`shared`)."""
    weights = EdgeWeights(held(kept), settings)
    with collector_paused():
        for (chunk_id, _, _), terms in zip(items, _terms(settings, cache_dir, items),
                                           strict=True):
            weights.add(terms, chunk_id)
    return weights


def extract_chunks(shared_decisions: Shared, cache_dir: Path,
                   items: Sequence[Item]) -> list[ChunkExtraction]:
    """Pass 2 over some chunks: their extractions as the whole input decided them (`shared`)."""
    decisions: Decisions = held(shared_decisions)
    with collector_paused():
        return [decisions.extraction(terms)
                for terms in _terms(decisions.settings, cache_dir, items)]


def _terms(settings: FastExtractionSettings, cache_dir: Path,
           items: Sequence[Item]) -> list[ChunkTerms]:
    """Each item's terms (its chunk id set), cached or parsed in this worker."""
    cache = ParseCache(cache_dir, settings)
    try:
        return parse_texts(load_pipeline, [(chunk_id, text) for chunk_id, _, text in items],
                           settings, cache)
    finally:
        cache.close()
