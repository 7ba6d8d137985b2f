"""The indexing story: documents -> chunks -> extraction -> resolution -> graph -> descriptions."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field

from rich.console import Console

from graphrag_neo4j.indexing.costs.budgets import guard_batch, stopped
from graphrag_neo4j.indexing.extraction.fast.extraction import extract_fast_in_thread
from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline
from graphrag_neo4j.indexing.extraction.llm import Extractor
from graphrag_neo4j.indexing.extraction.triplets import extractions_from_triplets
from graphrag_neo4j.indexing.graph.deletion import delete_document
from graphrag_neo4j.indexing.graph.refresh import refresh_entities, refresh_relations
from graphrag_neo4j.indexing.graph.summaries import DescriptionMerger
from graphrag_neo4j.indexing.graph.writer import write_documents_and_chunks, write_mentions
from graphrag_neo4j.indexing.input.chunking import chunk_document
from graphrag_neo4j.indexing.input.limits import documents_within_limits, extraction_within_limits
from graphrag_neo4j.indexing.input.triplet_corpus import TripletPassage
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction, Document
from graphrag_neo4j.indexing.resolution.stage import ResolvingStage
from graphrag_neo4j.indexing.run_report import IndexStats
from graphrag_neo4j.llm.calls import LLMCaller
from graphrag_neo4j.llm.costs.budget import BudgetExceededError
from graphrag_neo4j.llm.embedding_calls import EmbeddingCaller
from graphrag_neo4j.progress import StageProgress
from graphrag_neo4j.settings import Settings
from graphrag_neo4j.store import Store

DOCUMENTS_PER_BATCH = 100
CHUNK_STAGE = "embed + write chunks"
EXTRACT_STAGES = {"llm": "extract (LLM)", "fast": "extract (fast, spaCy)"}
GRAPH_LOCK = "graph"  # held while a batch is resolved and written (see Store.exclusive)


@dataclass
class Indexer:
    """Writes documents into the graph; every step is idempotent, so a re-run resumes."""

    settings: Settings
    store: Store
    embedder: EmbeddingCaller
    llm: LLMCaller | None = None
    console: Console = field(default_factory=lambda: Console(stderr=True))

    async def index_documents(
        self, documents: Sequence[Document], progress: StageProgress | None = None
    ) -> IndexStats:
        """Index texts with the configured extraction method (`llm` requires an LLM);
        `progress` is a caller's display to show the stages in."""
        if self.llm is None and self._method == "llm":
            raise ValueError("LLM extraction needs an LLM; pass one or use index_triplets()")
        return await self._run(documents, {}, progress)

    @property
    def _method(self) -> str:
        return self.settings.extraction.method

    @property
    def _extract_stage(self) -> str:
        return EXTRACT_STAGES[self._method]

    async def index_triplets(self, passages: Sequence[TripletPassage]) -> IndexStats:
        """Index passages that bring their own triplets: no LLM, as the Milvus notebook does."""
        triplets = {p.document.id: p.triplets for p in passages}
        stats = await self._run([p.document for p in passages], triplets)
        stats.triplets = sum(len(t) for t in triplets.values())
        return stats

    async def _run(
        self,
        documents: Sequence[Document],
        triplets: dict[str, list[tuple[str, str, str]]],
        shown: StageProgress | None = None,
    ) -> IndexStats:
        stats = IndexStats()
        documents, stats.refused_documents = documents_within_limits(documents)
        todo = await self._documents_to_index(documents, stats)
        chunks = {d.id: chunk_document(d, self.settings.chunking) for d in todo}
        total_chunks = sum(len(c) for c in chunks.values())
        with ExitStack() as stack:
            # A caller's display (e.g. a server job's) is used as it is; otherwise one is opened.
            progress = shown or stack.enter_context(StageProgress(self.console))
            stats.stage_seconds = progress.stage_seconds
            progress.declare(CHUNK_STAGE, total_chunks)
            if not triplets:
                progress.declare(self._extract_stage, total_chunks)
            start = 0
            try:
                for start in range(0, len(todo), DOCUMENTS_PER_BATCH):
                    batch = todo[start : start + DOCUMENTS_PER_BATCH]
                    if self.llm is not None and not triplets and self._method == "llm":
                        guard_batch(self._extractor(), [c for d in batch for c in chunks[d.id]],
                                    start // DOCUMENTS_PER_BATCH + 1)
                    await self._index_batch(batch, chunks, triplets, progress, stats)
            except BudgetExceededError as exc:
                raise stopped(exc, start, todo[start:], chunks) from exc
        if todo:
            await asyncio.to_thread(self.store.run_autocommit, "indexing/await_name_index")
        stats.documents = len(todo)
        stats.chunks = total_chunks
        return stats

    async def _documents_to_index(
        self, documents: Sequence[Document], stats: IndexStats
    ) -> list[Document]:
        """New and changed documents; a changed one loses its old version first."""
        rows = await asyncio.to_thread(
            self.store.read, "indexing/find_indexed_documents", ids=[d.id for d in documents]
        )
        stored = {row["id"]: row for row in rows}
        todo = []
        for document in {d.id: d for d in documents}.values():
            row = stored.get(document.id)
            if row and row["complete"] and row["content_hash"] == document.content_hash:
                stats.unchanged_documents += 1
                continue
            if row and row["content_hash"] != document.content_hash:
                stats.changed_documents += 1
                await delete_document(self.store, document.id, self._merger(), self.embedder)
            todo.append(document)
        return todo

    def _merger(self) -> DescriptionMerger:
        return DescriptionMerger.from_settings(self.llm, self.settings)

    async def _index_batch(
        self,
        documents: list[Document],
        chunks_by_document: dict[str, list[Chunk]],
        triplets: dict[str, list[tuple[str, str, str]]],
        progress: StageProgress,
        stats: IndexStats,
    ) -> None:
        chunks = [c for d in documents for c in chunks_by_document[d.id]]
        with progress.stage(CHUNK_STAGE) as advance:
            vectors = await self.embedder.embed([c.text for c in chunks])
            method = "triplets" if triplets else self._method
            await asyncio.to_thread(
                write_documents_and_chunks, self.store, documents, chunks, vectors, advance, method
            )
        extractions = await self._extractions(documents, chunks_by_document, triplets, progress)
        extractions = [extraction_within_limits(e) for e in extractions]
        # Resolution reads the entities it merges into: another run writing between its read
        # and this write would record different merges, so this part runs one writer at a time
        # (extraction, the slow part, stays concurrent).
        with self.store.exclusive(GRAPH_LOCK):
            await self._resolve_and_write(documents, chunks, extractions, progress, stats)

    async def _resolve_and_write(
        self,
        documents: list[Document],
        chunks: list[Chunk],
        extractions: list[ChunkExtraction],
        progress: StageProgress,
        stats: IndexStats,
    ) -> None:
        stage = ResolvingStage(
            self.store, self.settings.extraction, self.embedder, self.llm, self.settings.prompts_dir
        )
        with progress.stage("resolve entities", add_total=1) as advance:
            resolution = await stage.resolve(extractions, {c.id: c.document_id for c in chunks})
            advance(1)
        with progress.stage("write graph", add_total=1) as advance:
            entity_ids, relation_ids = await asyncio.to_thread(
                write_mentions, self.store, extractions, resolution
            )
            advance(1)
        await self._refresh(entity_ids, relation_ids, progress)
        await asyncio.to_thread(
            self.store.write, "indexing/mark_documents_indexed", ids=[d.id for d in documents]
        )
        self._count(stats, extractions, resolution.merges, entity_ids, relation_ids)
        stats.llm_decisions += resolution.llm_decisions

    async def _extractions(
        self,
        documents: list[Document],
        chunks_by_document: dict[str, list[Chunk]],
        triplets: dict[str, list[tuple[str, str, str]]],
        progress: StageProgress,
    ) -> list[ChunkExtraction]:
        """The batch's mentions: given triplets, spaCy (fast) or the LLM."""
        if triplets:
            return [
                extraction
                for d in documents
                for extraction in extractions_from_triplets(
                    chunks_by_document[d.id], triplets.get(d.id, [])
                )
            ]
        chunks = [c for d in documents for c in chunks_by_document[d.id]]
        if self._method == "fast":
            return await self._extract_fast(chunks, progress)
        return await self._extract(chunks, progress)

    async def _extract(self, chunks: list[Chunk], progress: StageProgress) -> list[ChunkExtraction]:
        extractor = self._extractor()
        with progress.stage(self._extract_stage) as advance:

            async def one(chunk: Chunk) -> ChunkExtraction:
                result = await extractor.extract(chunk)
                advance(1)
                return result

            return list(await asyncio.gather(*(one(c) for c in chunks)))

    async def _extract_fast(
        self, chunks: list[Chunk], progress: StageProgress
    ) -> list[ChunkExtraction]:
        """spaCy over the batch's chunks in a worker thread, so the event loop stays free."""
        with progress.stage(self._extract_stage) as advance:
            nlp = await asyncio.to_thread(load_pipeline)
            return await extract_fast_in_thread(
                nlp, chunks, self.settings.extraction.fast, advance
            )

    def _extractor(self) -> Extractor:
        assert self.llm is not None  # index_documents() checked it
        return Extractor(self.llm, self.settings.extraction, self.settings.prompts_dir)

    async def _refresh(
        self, entity_ids: set[str], relation_ids: set[str], progress: StageProgress
    ) -> None:
        merger = self._merger()
        with progress.stage("entity descriptions", add_total=len(entity_ids)) as advance:
            await refresh_entities(self.store, entity_ids, merger, self.embedder, advance)
        with progress.stage("relation descriptions", add_total=len(relation_ids)) as advance:
            await refresh_relations(self.store, relation_ids, merger, self.embedder, advance)

    @staticmethod
    def _count(
        stats: IndexStats,
        extractions: list[ChunkExtraction],
        merges: Sequence[object],
        entity_ids: set[str],
        relation_ids: set[str],
    ) -> None:
        stats.entities += len(entity_ids)
        stats.relations += len(relation_ids)
        stats.merges += len(merges)
        for extraction in extractions:
            stats.dropped_records += extraction.dropped_records
            stats.orphans_added += extraction.orphans_added
            stats.orphans_dropped += extraction.orphans_dropped
