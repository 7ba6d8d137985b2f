"""Fast extraction's two passes with the parsing on a Ray cluster and the decisions here.

As `fast.streamed.CorpusRun`, pass 1 counts the whole input and decides, and pass 2 builds a
batch's extractions from those decisions; here each pass is cut into partitions of
`execution.partition_chunks` chunks parsed by Ray tasks. Their partial counts (`TermCounts`,
then `EdgeWeights`) are merged here in partition order (`partial_counts.merged`), so no worker
reads the whole input and the decisions are those of one run.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphrag_neo4j.indexing.cluster.fast_work import (
    Item,
    count_terms,
    extract_chunks,
    weigh_statements,
)
from graphrag_neo4j.indexing.cluster.partial_counts import merged
from graphrag_neo4j.indexing.cluster.tasks import cluster_map, part_size, shared
from graphrag_neo4j.indexing.extraction.fast.decisions import Decisions, EdgeWeights, TermCounts
from graphrag_neo4j.indexing.extraction.fast.parsing import iter_parsed_texts
from graphrag_neo4j.indexing.extraction.fast.streamed import corpus_scope
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction
from graphrag_neo4j.settings import ExecutionSettings, FastExtractionSettings

Progress = Callable[[int], None] | None


@dataclass(frozen=True)
class ClusterCorpusRun:
    """What pass 1 decided over the input on the cluster, and the input's readable chunks."""

    decisions: Decisions
    shared_decisions: Any  # the decisions in the cluster's object store, put there once
    by_document: Mapping[str, Sequence[Chunk]]  # readable chunks, per document, in order
    refused: Mapping[str, str]  # document id -> why it was not parsed (its language)
    scope: list[ChunkExtraction]
    cache_dir: Path
    execution: ExecutionSettings

    @classmethod
    def decided(
        cls,
        chunks: Sequence[Chunk],
        refused: Mapping[str, str],
        settings: FastExtractionSettings,
        cache_dir: Path,
        max_name_words: int,
        execution: ExecutionSettings,
        on_chunk: Progress = None,
    ) -> ClusterCorpusRun:
        """Pass 1 over the input's `chunks` on the cluster (`refused` documents unparsed)."""
        readable = [c for c in chunks if c.document_id not in refused]
        # One parser per task: the cluster's CPUs are its parallelism.
        one = settings.model_copy(update={"processes": 1})
        size = part_size(len(readable), execution)
        parts = _partitions(readable, size)
        counted = cluster_map(count_terms, ((one, cache_dir, part) for part in parts), execution,
                              None if on_chunk is None else lambda part: on_chunk(part.chunks))
        counts = merged(counted, TermCounts())
        kept = shared(counts.frequent(settings), execution)
        parts = _partitions(readable, size)
        weighed = cluster_map(weigh_statements, ((one, cache_dir, part, kept) for part in parts),
                              execution)
        weights = merged(weighed, EdgeWeights(counts.frequent(settings), one))
        decisions = Decisions.made(counts, weights)
        scope = corpus_scope(decisions, weights.by_chunk, max_name_words)
        by_document: dict[str, list[Chunk]] = {}
        for chunk in readable:
            by_document.setdefault(chunk.document_id, []).append(chunk)
        return cls(decisions, shared(decisions, execution), by_document, dict(refused), scope,
                   cache_dir, execution)

    def covers(self, chunks: Sequence[Chunk]) -> bool:
        """Whether every one of `chunks` was in the input this run decided over."""
        known = {c.id for c in itertools.chain.from_iterable(
            self.by_document.get(d, ()) for d in {c.document_id for c in chunks})}
        return all(c.id in known or c.document_id in self.refused for c in chunks)

    def extractions(self, chunks: Sequence[Chunk]) -> list[ChunkExtraction]:
        """Pass 2 on the cluster: the extraction of each of `chunks`."""
        readable = [c for c in chunks if c.document_id not in self.refused]
        items = self._items(readable)
        size = part_size(len(items), self.execution)
        found = {e.chunk_id: e for part in cluster_map(
            extract_chunks,
            ((self.shared_decisions, self.cache_dir, items[start : start + size])
             for start in range(0, len(items), size)),
            self.execution) for e in part}
        return [found[c.id] if c.document_id not in self.refused
                else ChunkExtraction(c.id, refused_reason=self.refused[c.document_id])
                for c in chunks]

    def _items(self, chunks: Sequence[Chunk]) -> list[Item]:
        """Each chunk's text to parse: its document read from its start, as pass 1 read it."""
        wanted = {c.id for c in chunks}
        items = []
        for document_id in dict.fromkeys(c.document_id for c in chunks):
            every = self.by_document[document_id]
            last = max(i for i, c in enumerate(every) if c.id in wanted)
            items += [(c.id, document_id, text)
                      for c, text in zip(every[: last + 1], iter_parsed_texts(every[: last + 1]),
                                         strict=True) if c.id in wanted]
        return items


def _partitions(chunks: Sequence[Chunk], size: int) -> Iterator[list[Item]]:
    """The input's items, `size` at a time, read lazily (the driver never holds them all)."""
    items = ((c.id, c.document_id, text) for c, text in zip(chunks, iter_parsed_texts(chunks),
                                                            strict=True))
    while part := list(itertools.islice(items, size)):
        yield part
