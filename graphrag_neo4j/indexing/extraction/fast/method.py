"""Fast extraction as an extraction method: spaCy entities, noun-phrase concepts, co-occurrence."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from graphrag_neo4j.indexing.extraction.base import Advance, Batch, IndexingServices
from graphrag_neo4j.indexing.extraction.rows import EXTRACTION_ROW, GLEANING_ROW
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction
from graphrag_neo4j.llm.costs.estimate import StageEstimate
from graphrag_neo4j.llm.costs.profile import ModelProfile


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
        cache = ParseCache(settings.cache_dir, settings.extraction.fast)
        try:
            return await extract_fast_in_thread(
                nlp, batch.all_chunks, settings.extraction.fast, advance, cache
            )
        finally:
            cache.close()

    def estimate(
        self, chunks: Sequence[Chunk], profile: ModelProfile  # noqa: ARG002 (no model call)
    ) -> list[StageEstimate]:
        """No model calls: NLP extraction on the CPU."""
        return [StageEstimate(EXTRACTION_ROW, note="fast: NLP extraction, no LLM"),
                StageEstimate(GLEANING_ROW, note="fast: no LLM")]
