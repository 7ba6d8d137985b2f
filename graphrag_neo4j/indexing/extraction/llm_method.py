"""LLM extraction as an extraction method: one tagged-extraction call per chunk plus gleaning."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphrag_neo4j.indexing.extraction.base import (
    Advance,
    Batch,
    DescriptionStyle,
    IndexingServices,
    require_llm,
)
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction

if TYPE_CHECKING:
    from graphrag_neo4j.indexing.extraction.llm import Extractor
    from graphrag_neo4j.llm.costs.estimate import StageEstimate
    from graphrag_neo4j.llm.costs.profile import ModelProfile


@dataclass
class LLMExtraction:
    """Entities and triplets in tagged records from the LLM, gleaning what it missed."""

    services: IndexingServices
    name = "llm"
    description = (
        "The LLM reads every chunk and returns typed entities with descriptions and "
        "relations (plus gleaning passes): the richest graph, at one or more calls per chunk.")
    progress_label = "extract (LLM)"
    needs_llm = True
    llm_extracted = True
    cooccurrence_relations = False
    folds_aliases = False  # the LLM decides merges
    embeds_relations = True
    description_style = DescriptionStyle()

    def extractor(self) -> Extractor:
        """The per-chunk extractor over the run's LLM and settings."""
        # Imported here: the registry is read by every CLI command, the LLM stack only by runs.
        from graphrag_neo4j.indexing.extraction.llm import Extractor

        settings = self.services.settings
        return Extractor(require_llm(self.services, self.name), settings.extraction,
                         settings.prompts_dir)

    async def extract(self, batch: Batch, advance: Advance) -> list[ChunkExtraction]:
        """Every chunk's extraction, the calls in flight as the LLM's concurrency allows."""
        extractor = self.extractor()

        async def one(chunk: Chunk) -> ChunkExtraction:
            result = await extractor.extract(chunk)
            advance(1)
            return result

        return list(await asyncio.gather(*(one(c) for c in batch.all_chunks)))

    def estimate(self, chunks: Sequence[Chunk], profile: ModelProfile) -> list[StageEstimate]:
        """The extraction and gleaning rows, followed through the cache as a run would."""
        from graphrag_neo4j.indexing.extraction.llm_requests import extraction_rows

        return extraction_rows(self.extractor(), profile, list(chunks))
