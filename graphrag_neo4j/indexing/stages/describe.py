"""The description stages: what the batch touched gets merged descriptions and vectors."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.costs.dependent_stages import Dependent, dependent_row
from graphrag_neo4j.indexing.extraction.base import IndexingServices
from graphrag_neo4j.indexing.graph.refresh import refresh_entities, refresh_relations
from graphrag_neo4j.indexing.graph.summaries import STAGE, DescriptionMerger
from graphrag_neo4j.indexing.stages.base import BatchState, EstimateInputs
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.costs.estimate import StageEstimate
from graphrag_neo4j.runtime.progress import StageProgress

SUMMARIES_ROW = "summaries"  # both stages' LLM summaries; their vectors go in "embeddings"
Refresh = Callable[
    [Store, Iterable[str], DescriptionMerger, EmbeddingCaller | None, Callable[[int], None]],
    Awaitable[int],
]


@dataclass
class DescriptionStage:
    """Each touched entity's (or relation's) description from all its mentions, embedded."""

    label: str
    refresh: Refresh
    touched: Callable[[BatchState], set[str]]
    counts_summaries: bool  # one row counts both stages' summaries: the first stage's
    optional_vectors: bool = False  # vectors only when the extraction method embeds relations
    estimate_row: str = SUMMARIES_ROW
    usage_key: str | None = STAGE

    async def run(self, state: BatchState, services: IndexingServices,
                  progress: StageProgress) -> None:
        """Re-describe and re-embed what the write stage touched."""
        merger = DescriptionMerger.from_settings(services.llm, services.settings,
                                                state.descriptions)
        ids = self.touched(state)
        embedder = services.embedder
        with progress.stage(self.label, add_total=len(ids)) as advance:
            wanted = state.embed_relations or not self.optional_vectors
            await self.refresh(services.store, ids, merger, embedder if wanted else None, advance)

    def estimate(self, inputs: EstimateInputs) -> list[StageEstimate]:
        """Summary calls past the token budget, for entities and relations together."""
        if not self.counts_summaries:
            return []
        if not inputs.llm_used:
            return [StageEstimate(self.estimate_row, note="no LLM: extractive descriptions")]
        budget = inputs.settings.extraction.summary_token_budget
        stage = Dependent(self.estimate_row, STAGE, "indexing/summarize_descriptions",
                          4 * budget,
                          inputs.settings.llm.max_tokens)
        return [dependent_row(inputs.profile, inputs.settings, stage, inputs.new_chunks)]


def _entities(state: BatchState) -> set[str]:
    return state.entity_ids


def _relations(state: BatchState) -> set[str]:
    return state.relation_ids


ENTITY_DESCRIPTIONS = DescriptionStage("entity descriptions", refresh_entities, _entities,
                                       counts_summaries=True)
RELATION_DESCRIPTIONS = DescriptionStage("relation descriptions", refresh_relations, _relations,
                                         counts_summaries=False, optional_vectors=True)
