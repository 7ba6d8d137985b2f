"""Fast extraction as an extraction method: spaCy entities, noun-phrase concepts, co-occurrence."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphrag_neo4j.indexing.extraction.base import (
    Advance,
    Batch,
    DescriptionStyle,
    IndexingServices,
)
from graphrag_neo4j.indexing.extraction.rows import EXTRACTION_ROW, GLEANING_ROW
from graphrag_neo4j.indexing.input.language import UNKNOWN
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction
from graphrag_neo4j.llm.costs.estimate import StageEstimate

if TYPE_CHECKING:
    from graphrag_neo4j.indexing.cluster.fast_run import ClusterCorpusRun
    from graphrag_neo4j.indexing.extraction.fast.streamed import CorpusRun
    from graphrag_neo4j.llm.costs.profile import ModelProfile

logger = logging.getLogger(__name__)


@dataclass
class FastExtraction:
    """spaCy's named entities and frequent noun phrases, related by co-occurrence; no LLM."""

    services: IndexingServices
    # What the run's whole input decided (pass 1), read by each batch (pass 2).
    _run: CorpusRun | ClusterCorpusRun | None = None
    _language: str = "en"  # the spaCy pipeline's, read when it loads
    name = "fast"
    description = (
        "spaCy's named entities and frequent noun phrases related by co-occurrence, with "
        "verbatim sentences as descriptions: thousands of words a second, no LLM.")
    progress_label = "extract (fast, spaCy)"
    llm_extracted = False
    cooccurrence_relations = True

    @property
    def folds_aliases(self) -> bool:
        """As the settings say (on by default): no LLM decides its merges."""
        return self.services.settings.extraction.fast.fold_aliases

    @property
    def needs_llm(self) -> bool:
        """Only when the settings ask the LLM to summarise long descriptions."""
        return self.services.settings.extraction.fast.llm_summaries

    @property
    def embeds_relations(self) -> bool:
        """Only when the settings ask for vectors of co-occurrence relations."""
        return self.services.settings.extraction.fast.embed_relations

    @property
    def description_style(self) -> DescriptionStyle:
        """A few verbatim sentences, vectors of the name and a few words of them; what the LLM
        writes when the settings ask it to summarise."""
        fast = self.services.settings.extraction.fast
        if fast.llm_summaries:
            return DescriptionStyle()
        return DescriptionStyle(fast.sentences_per_description, fast.vector_words,
                                llm_summaries=False)

    async def extract(self, batch: Batch, advance: Advance) -> list[ChunkExtraction]:
        """The batch's chunks as the whole input decides them (frequent terms, types, pruning
        over every document of the run, so a batch or a shard of it writes what one run would).

        The input is parsed once per run (spaCy in a worker thread, parses cached on disk) and
        only counts are kept of it; each batch's extractions are built from its own cached
        parses, so memory is set by the batch, not the input. Documents in another language
        than the pipeline's are not parsed (one line each).
        """
        chunks = batch.all_chunks
        shown = _Capped(advance, len(chunks))  # the bar counts this run's chunks only
        if self._run is None or not self._run.covers(chunks):
            self._run = await self._decide(batch, shown)
        shown(len(chunks))
        extractions = await asyncio.to_thread(self._run.extractions, chunks)
        _warn_refused_documents(batch, extractions, self._language)
        return extractions

    def corpus_extractions(self) -> list[ChunkExtraction]:
        """The names each document of the run's input holds, without those a batch refuses
        (alias folding decides over them)."""
        return [] if self._run is None else self._run.scope

    async def _decide(self, batch: Batch, advance: Advance) -> CorpusRun | ClusterCorpusRun:
        # Imported here: the registry is read by every CLI command, spaCy only by runs.
        from graphrag_neo4j.indexing.extraction.fast.extraction import in_own_thread
        from graphrag_neo4j.indexing.extraction.fast.nlp_model import (
            load_pipeline,
            pipeline_language,
        )
        from graphrag_neo4j.indexing.extraction.fast.streamed import CorpusRun

        settings = self.services.settings
        every = batch.corpus_chunks
        self._language = await asyncio.to_thread(pipeline_language)
        refused = _refusal_reasons(batch, self._language)
        if settings.execution.ray:
            from graphrag_neo4j.indexing.cluster.fast_run import ClusterCorpusRun

            on_cluster = await asyncio.to_thread(
                ClusterCorpusRun.decided, every, refused, settings.extraction.fast,
                settings.cache_dir, settings.extraction.max_name_words, settings.execution,
                advance)
            advance(sum(1 for c in every if c.document_id in refused))
            return on_cluster
        # spaCy is loaded only if some chunk's parse is not cached (a warm re-run never loads it).
        run = await in_own_thread(
            CorpusRun.decided, load_pipeline, every, refused, settings.extraction.fast,
            settings.cache_dir, settings.extraction.max_name_words, advance,
        )
        advance(sum(1 for c in every if c.document_id in refused))
        return run

    def estimate(
        self, chunks: Sequence[Chunk], profile: ModelProfile  # noqa: ARG002 (no model call)
    ) -> list[StageEstimate]:
        """No model calls: NLP extraction on the CPU."""
        return [StageEstimate(EXTRACTION_ROW, note="fast: NLP extraction, no LLM"),
                StageEstimate(GLEANING_ROW, note="fast: no LLM")]


def _refusal_reasons(batch: Batch, pipeline_language: str) -> dict[str, str]:
    """The input's documents in another language than the pipeline's, with the reason: parsing
    them would read whole sentences as names."""
    refused = {}
    for document_id, language in batch.languages.items():
        if language.code not in (pipeline_language, UNKNOWN):
            refused[document_id] = f"written in {language.name} ({language.code})"
    return refused


def _warn_refused_documents(
    batch: Batch, extractions: list[ChunkExtraction], pipeline_language: str
) -> None:
    """One warning line for each of the batch's documents left unparsed, naming it."""
    by_chunk = {extraction.chunk_id: extraction for extraction in extractions}
    for document in batch.documents:
        chunks = batch.chunks[document.id]
        reason = by_chunk[chunks[0].id].refused_reason if chunks else None
        if reason is None:
            continue
        logger.warning(
            "Document %r (%s) is %s: fast extraction reads %s only, so its %d chunks are indexed"
            " for retrieval without entities; index it with `--method llm` for its graph.",
            document.title or document.id, document.source, reason,
            pipeline_language, len(chunks),
        )


@dataclass
class _Capped:
    """Progress that stops at `total`: parsing other batches' chunks does not overfill a bar."""

    advance: Advance
    total: int
    done: int = 0

    def __call__(self, count: int) -> None:
        step = min(count, self.total - self.done)
        if step > 0:
            self.done += step
            self.advance(step)
