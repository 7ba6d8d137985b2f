"""Fast extraction as an extraction method: spaCy entities, noun-phrase concepts, co-occurrence."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from graphrag_neo4j.indexing.extraction.base import Advance, Batch, IndexingServices
from graphrag_neo4j.indexing.extraction.rows import EXTRACTION_ROW, GLEANING_ROW
from graphrag_neo4j.indexing.input.language import UNKNOWN
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction
from graphrag_neo4j.llm.costs.estimate import StageEstimate
from graphrag_neo4j.llm.costs.profile import ModelProfile

logger = logging.getLogger(__name__)


@dataclass
class FastExtraction:
    """spaCy's named entities and frequent noun phrases, related by co-occurrence; no LLM."""

    services: IndexingServices
    name = "fast"
    description = (
        "spaCy's named entities and frequent noun phrases related by co-occurrence, with "
        "verbatim sentences as descriptions: thousands of words a second, no LLM.")
    progress_label = "extract (fast, spaCy)"
    names_from_text = True

    @property
    def needs_llm(self) -> bool:
        """Only when the settings ask the LLM to summarise long descriptions."""
        return self.services.settings.extraction.fast.llm_summaries

    @property
    def embeds_relations(self) -> bool:
        """Only when the settings ask for vectors of co-occurrence relations."""
        return self.services.settings.extraction.fast.embed_relations

    async def extract(self, batch: Batch, advance: Advance) -> list[ChunkExtraction]:
        """spaCy over the batch's chunks in a worker thread, so the event loop stays free."""
        # Imported here: the registry is read by every CLI command, spaCy only by runs.
        from graphrag_neo4j.indexing.extraction.fast.extraction import extract_fast_in_thread
        from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline
        from graphrag_neo4j.indexing.extraction.fast.parse_cache import ParseCache

        nlp = await asyncio.to_thread(load_pipeline)
        settings = self.services.settings
        refused = _refused_documents(batch, nlp.lang or "en")
        readable = [c for c in batch.all_chunks if c.document_id not in refused]
        cache = ParseCache(settings.cache_dir, settings.extraction.fast)
        try:
            extractions = await extract_fast_in_thread(
                nlp, readable, settings.extraction.fast, advance, cache
            )
        finally:
            cache.close()
        by_chunk = {e.chunk_id: e for e in extractions}
        for chunk in batch.all_chunks:
            if chunk.document_id in refused:
                by_chunk[chunk.id] = ChunkExtraction(chunk.id,
                                                     refused_reason=refused[chunk.document_id])
        advance(len(batch.all_chunks) - len(readable))
        return [by_chunk[c.id] for c in batch.all_chunks]

    def estimate(
        self, chunks: Sequence[Chunk], profile: ModelProfile  # noqa: ARG002 (no model call)
    ) -> list[StageEstimate]:
        """No model calls: NLP extraction on the CPU."""
        return [StageEstimate(EXTRACTION_ROW, note="fast: NLP extraction, no LLM"),
                StageEstimate(GLEANING_ROW, note="fast: no LLM")]


def _refused_documents(batch: Batch, pipeline_language: str) -> dict[str, str]:
    """The batch's documents in another language than the pipeline's, with the reason, each
    named in one warning line: parsing them would read whole sentences as names."""
    refused = {}
    for document in batch.documents:
        language = batch.languages.get(document.id)
        if language is None or language.code in (pipeline_language, UNKNOWN):
            continue
        reason = f"written in {language.name} ({language.code})"
        refused[document.id] = reason
        logger.warning(
            "Document %r (%s) is %s: fast extraction reads %s only, so its %d chunks are indexed"
            " for retrieval without entities; index it with `--method llm` for its graph.",
            document.title or document.id, document.source, reason, pipeline_language,
            len(batch.chunks[document.id]),
        )
    return refused
