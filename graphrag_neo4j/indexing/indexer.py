"""The indexing story: documents -> chunks -> extraction -> the stages after it -> the graph."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field

from rich.console import Console

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.costs.budgets import guard_batch, stopped
from graphrag_neo4j.indexing.extraction.base import (
    Batch,
    CorpusWide,
    ExtractionMethod,
    IndexingServices,
    RunServices,
    document_record,
)
from graphrag_neo4j.indexing.extraction.registry import create_extraction_method, legacy_style
from graphrag_neo4j.indexing.extraction.schema import ExtractionSchema, SchemaCounts, apply_schema
from graphrag_neo4j.indexing.extraction.schema_meanings import learn_meanings
from graphrag_neo4j.indexing.extraction.triplets import TripletExtraction
from graphrag_neo4j.indexing.graph.deletion import delete_document
from graphrag_neo4j.indexing.graph.document_styles import DocumentStyles
from graphrag_neo4j.indexing.graph.writer import write_chunk_places, write_documents_and_chunks
from graphrag_neo4j.indexing.input.batching import plan_batches
from graphrag_neo4j.indexing.input.changes import chunks_to_index, documents_to_index
from graphrag_neo4j.indexing.input.chunking import chunk_document
from graphrag_neo4j.indexing.input.language import Language, embedder_mismatch, language_counts
from graphrag_neo4j.indexing.input.language_cache import document_languages
from graphrag_neo4j.indexing.input.limits import (
    documents_within_limits,
    extraction_within_limits,
    too_long,
)
from graphrag_neo4j.indexing.input.triplet_corpus import Triplet, TripletPassage
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction, Document
from graphrag_neo4j.indexing.resolution.aliases import RunAliasScopes
from graphrag_neo4j.indexing.run.batch_failure import batch_failure, log_path
from graphrag_neo4j.indexing.run.run_lock import one_run_per_input
from graphrag_neo4j.indexing.run.run_report import IndexStats
from graphrag_neo4j.indexing.stages import registry as stage_list
from graphrag_neo4j.indexing.stages.base import CHUNKS_LABEL, BatchState
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.costs.budget import BudgetExceededError
from graphrag_neo4j.runtime.errors import GraphRAGError
from graphrag_neo4j.runtime.progress import StageProgress
from graphrag_neo4j.settings import Settings

TRIPLETS = TripletExtraction.name  # the method that reads the triplets passages bring
logger = logging.getLogger(__name__)
GRAPH_LOCK = "graph"  # held while a batch is resolved and written (see Store.exclusive)


@dataclass
class Indexer:
    """Writes documents into the graph; every step is idempotent, so a re-run resumes."""

    settings: Settings
    store: Store
    embedder: EmbeddingCaller
    llm: LLMCaller | None = None
    console: Console = field(default_factory=lambda: Console(stderr=True))
    # The extraction schema (None without one), with the meanings its batches have learnt.
    _schema: ExtractionSchema | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._schema = ExtractionSchema.from_settings(self.settings.extraction.schema_)

    @property
    def services(self) -> IndexingServices:
        """What the extraction method and the stages are built from."""
        return RunServices(self.settings, self.store, self.embedder, self.llm)

    async def index_documents(
        self,
        documents: Sequence[Document],
        progress: StageProgress | None = None,
        corpus: Sequence[Document] | None = None,
    ) -> IndexStats:
        """Index texts with the configured extraction method; `progress` is a caller's
        display to show the stages in; `corpus` is the run's whole input when `documents` are
        a shard of it (a method deciding over the whole input, as fast extraction does, reads
        it so that shards write the graph of one run)."""
        method = create_extraction_method(self.settings.extraction.method, self.services)
        return await self._run(method, documents, {}, progress, corpus)

    async def index_triplets(self, passages: Sequence[TripletPassage]) -> IndexStats:
        """Index passages that bring their own triplets: no LLM, as the Milvus notebook does."""
        triplets = {p.document.id: p.triplets for p in passages}
        method = create_extraction_method(TRIPLETS, self.services)
        stats = await self._run(method, [p.document for p in passages], triplets)
        stats.triplets = sum(len(t) for t in triplets.values())
        return stats

    async def _run(
        self,
        method: ExtractionMethod,
        documents: Sequence[Document],
        triplets: Mapping[str, Sequence[Triplet]],
        shown: StageProgress | None = None,
        corpus: Sequence[Document] | None = None,
    ) -> IndexStats:
        stats = IndexStats()
        documents, stats.refused_documents = documents_within_limits(documents)
        # Another run over the same documents finishes first (see run_lock).
        with one_run_per_input(self.store, documents):
            return await self._run_alone(method, documents, triplets, shown, corpus, stats)

    async def _run_alone(
        self,
        method: ExtractionMethod,
        documents: Sequence[Document],
        triplets: Mapping[str, Sequence[Triplet]],
        shown: StageProgress | None,
        corpus: Sequence[Document] | None,
        stats: IndexStats,
    ) -> IndexStats:
        todo, chunks, starts = await self._documents_to_index(documents, stats)
        every = self._corpus_chunks(method, corpus or documents, chunks)
        # A method deciding over the whole input reads the language of each of its documents.
        read = todo if every is None else [d for d in corpus or documents if d.id in every]
        languages = await asyncio.to_thread(document_languages, read, self.settings.cache_dir)
        self._warn_embedder_languages({d.id: languages[d.id] for d in todo})
        total_chunks = sum(len(c) for c in chunks.values()) - stats.kept_chunks
        with ExitStack() as stack:
            # A caller's display (e.g. a server job's) is used as it is; otherwise one is opened.
            progress = shown or stack.enter_context(StageProgress(self.console))
            stats.stage_seconds = progress.stage_seconds
            progress.declare(CHUNKS_LABEL, total_chunks)
            progress.declare(method.progress_label, total_chunks)
            done, written = 0, 0  # documents completed, chunks written
            plans = list(plan_batches(todo, chunks, starts))
            scopes = RunAliasScopes()  # the run's, shared by its batches
            try:
                for number, plan in enumerate(plans, start=1):
                    batch = Batch(plan.documents, plan.chunks, triplets, languages, every,
                                  plan.preceding, plan.finished)
                    guard_batch(method, self.llm, batch.all_chunks, number)
                    await self._index_or_roll_back(method, batch, progress, stats,
                                                   (number, len(plans)), scopes)
                    done += len(plan.finished)
                    written += len(batch.all_chunks)
            except BudgetExceededError as exc:
                raise stopped(exc, done, len(todo) - done, total_chunks - written) from exc
        if todo:
            await asyncio.to_thread(self.store.run_autocommit, "indexing/entities/await_name_index")
        rows = await asyncio.to_thread(self.store.read, "indexing/types/count_entity_types")
        stats.graph_entity_types = {row["type"]: row["entities"] for row in rows}
        graph = (await asyncio.to_thread(self.store.read, "database/count_graph"))[0]
        stats.graph_entities, stats.graph_relations = graph["entities"], graph["relations"]
        stats.documents = len(todo)
        stats.chunks = total_chunks
        return stats

    def _warn_embedder_languages(self, languages: Mapping[str, Language]) -> None:
        """One line when the corpus holds languages the embedder was not trained on."""
        warning = embedder_mismatch(language_counts(languages), self.embedder.languages,
                                    self.embedder.model_name)
        if warning is not None:
            logger.warning(warning)

    def _corpus_chunks(
        self,
        method: ExtractionMethod,
        corpus: Sequence[Document],
        chunks: Mapping[str, Sequence[Chunk]],
    ) -> dict[str, Sequence[Chunk]] | None:
        """Every input document's chunks, for a method deciding over the whole input."""
        if not chunks or not isinstance(method, CorpusWide):
            return None  # nothing to extract, or a method deciding per batch
        # The refused ones were reported with the run's own documents.
        return {d.id: chunks.get(d.id) or chunk_document(d, self.settings.chunking)
                for d in corpus if not too_long(d.id)}

    async def _documents_to_index(
        self, documents: Sequence[Document], stats: IndexStats
    ) -> tuple[list[Document], dict[str, list[Chunk]], dict[str, int]]:
        """New and changed documents with their chunks, and where half-written ones resume;
        a changed one loses its old version first, a half-written one what came after the
        part whole batches wrote."""
        rows = await asyncio.to_thread(
            self.store.read,
            "indexing/documents/find_indexed_documents",
            ids=[d.id for d in documents],
        )
        changes = documents_to_index(documents, {row["id"]: row for row in rows})
        if changes.unplaced:  # indexed before chunks kept their place: the same chunks get it
            chunking = self.settings.chunking
            placed = [c for d in changes.unplaced for c in chunk_document(d, chunking)]
            await asyncio.to_thread(write_chunk_places, self.store, placed)
        chunks, starts = chunks_to_index(changes, self.settings.chunking)
        stats.unchanged_documents += changes.unchanged
        stats.changed_documents += len(changes.changed)
        stats.resumed_documents += len(changes.incomplete)
        stats.kept_chunks += sum(starts.values())
        await self._delete({doc_id: starts.get(doc_id, 0) for doc_id in changes.cleared})
        return changes.todo, chunks, starts

    async def _delete(self, from_chunks: Mapping[str, int]) -> None:
        """Delete each document from the given chunk on (0: all of it); what its entities keep
        is described in the style of the documents that still support them."""
        styles = DocumentStyles(self.settings, lambda: self.llm,
                                lambda name: legacy_style(name, self.services))
        for document_id, from_chunk in from_chunks.items():
            await delete_document(self.store, document_id, styles, self.embedder, from_chunk)

    async def _index_or_roll_back(
        self, method: ExtractionMethod, batch: Batch, progress: StageProgress, stats: IndexStats,
        number: tuple[int, int], scopes: RunAliasScopes,
    ) -> None:
        """Index one batch; if anything fails inside it, what it wrote is deleted again (a
        batch is written whole or not at all) and an unforeseen error becomes one sentence."""
        try:
            await self._index_batch(method, batch, progress, stats, scopes)
        except Exception as error:
            rolled_back = await self._roll_back(batch)
            if isinstance(error, GraphRAGError):
                raise
            raise batch_failure(error, *number, batch.documents,
                                log_path(self.settings.cache_dir), rolled_back) from error

    async def _roll_back(self, batch: Batch) -> bool:
        """Delete what a failed batch wrote (what earlier batches wrote of a document stays);
        False (logged) when that fails too: the next run deletes it first."""
        try:
            rows = await asyncio.to_thread(
                self.store.read,
                "indexing/documents/find_indexed_documents",
                ids=[d.id for d in batch.documents],
            )
            await self._delete({row["id"]: row["indexed_chunks"] for row in rows
                                if not row["complete"]})
        except Exception:
            logger.info("rolling back a failed batch failed too", exc_info=True)
            return False
        return True

    async def _within_schema(
        self, extractions: list[ChunkExtraction], stats: IndexStats
    ) -> list[ChunkExtraction]:
        """The extractions mapped onto `[extraction.schema]` (as they are without one), counted;
        the meanings learnt for unknown types and predicates are kept for the next batches."""
        if self._schema is None:
            return extractions
        self._schema = await learn_meanings(self._schema, extractions, self.embedder,
                                            self.settings.extraction.schema_.min_similarity)
        counts = SchemaCounts()
        mapped = [apply_schema(e, self._schema, counts) for e in extractions]
        stats.schema_types_mapped += counts.types["mapped"]
        stats.schema_types_other += counts.types["other"]
        stats.schema_relations_mapped += counts.relations["mapped"]
        stats.schema_relations_other += counts.relations["other"]
        stats.schema_outside_patterns += counts.outside_patterns
        return mapped

    async def _index_batch(
        self, method: ExtractionMethod, batch: Batch, progress: StageProgress, stats: IndexStats,
        scopes: RunAliasScopes,
    ) -> None:
        chunks = batch.all_chunks
        with progress.stage(CHUNKS_LABEL) as advance:
            vectors = await self.embedder.embed([c.text for c in chunks])
            await asyncio.to_thread(
                write_documents_and_chunks, self.store, batch.documents, chunks, vectors,
                advance, document_record(method),
                {i: lang.code for i, lang in batch.languages.items()},
                list(batch.preceding.values()),
            )
        with progress.stage(method.progress_label) as advance:
            extractions = await method.extract(batch, advance)
        max_words = self.settings.extraction.max_name_words
        checked = [extraction_within_limits(e, max_words) for e in extractions]
        _warn_refused(checked, max_words)
        checked = await self._within_schema(checked, stats)
        state = BatchState(batch, checked, stats, embed_relations=method.embeds_relations,
                           descriptions=method.description_style,
                           fold_aliases=method.folds_aliases)
        if isinstance(method, CorpusWide):
            state.scope = scopes.of(method.corpus_extractions(), lambda: {
                c.id: c.document_id for c in batch.corpus_chunks})
        # Resolution reads the entities it merges into: another run writing between its read
        # and this write would record different merges, so the stages after extraction run
        # one writer at a time (extraction, the slow part, stays concurrent).
        with self.store.exclusive(GRAPH_LOCK):
            for stage in stage_list.AFTER_EXTRACTION:
                await stage.run(state, self.services, progress)
            await asyncio.to_thread(self.store.write, "indexing/documents/mark_documents_indexed",
                                    rows=_written_parts(batch))
        _count(state)


def _written_parts(batch: Batch) -> list[dict[str, object]]:
    """How far each document of a batch is written once the batch is, and whether it is done."""
    finished = set(batch.finished_ids)
    return [{"id": d.id, "finished": d.id in finished,
             "through": batch.chunks[d.id][-1].chunk_index + 1 if batch.chunks[d.id] else 0}
            for d in batch.documents]


def _count(state: BatchState) -> None:
    """Add what one batch did to the run's summary."""
    stats, resolution = state.stats, state.resolution
    stats.entities += len(state.entity_ids)
    stats.relations += len(state.relation_ids)
    if resolution is not None:
        stats.merges += len(resolution.merges)
        stats.llm_decisions += resolution.llm_decisions
    for extraction in state.extractions:
        stats.dropped_records += extraction.dropped_records
        stats.orphans_added += extraction.orphans_added
        stats.orphans_dropped += extraction.orphans_dropped
        stats.refused_names += len(extraction.refused_names)
        stats.value_facts += extraction.value_facts
    # A document split across batches is counted in the batch that finishes it.
    finished = set(state.batch.finished_ids)
    chunk_documents = {c.id: c.document_id for c in state.batch.all_chunks}
    stats.unextracted_documents += len({chunk_documents[e.chunk_id] for e in state.extractions
                                        if e.refused_reason is not None} & finished)


def _warn_refused(extractions: list[ChunkExtraction], max_words: int) -> None:
    """One line per batch for the names refused as no entity names, with the first one."""
    refused = [pair for e in extractions for pair in e.refused_names]
    if not refused:
        return
    name, reason = refused[0]
    facts = sum(e.value_facts for e in extractions)
    logger.warning(
        "%d extracted names were refused as no entity names (URLs, code or markup, numbers,"
        " sentences, headings in capitals, phrases of over %d words); first: %r (%s). %d"
        " relations from an entity to one of them became facts in its description; their"
        " words stay in the chunks for retrieval.",
        len(refused), max_words, name[:80], reason, facts,
    )
    for name, reason in refused:
        logger.info("refused entity name %r: %s", name[:200], reason)
