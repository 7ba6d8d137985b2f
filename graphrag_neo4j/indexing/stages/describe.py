"""The description stages: what the batch touched gets merged descriptions and vectors."""

from __future__ import annotations

from dataclasses import dataclass

from graphrag_neo4j.indexing.costs.dependent_stages import Dependent, dependent_row
from graphrag_neo4j.indexing.extraction.base import IndexingServices
from graphrag_neo4j.indexing.graph.refresh import refresh_entities, refresh_relations
from graphrag_neo4j.indexing.graph.summaries import STAGE, DescriptionMerger
from graphrag_neo4j.indexing.stages.base import BatchState, EstimateInputs
from graphrag_neo4j.llm.costs.estimate import StageEstimate
from graphrag_neo4j.progress import StageProgress

SUMMARIES_ROW = "summaries"  # both stages' LLM summaries; their vectors go in "embeddings"


@dataclass
class EntityDescriptions:
    """Each touched entity's description from all its mentions, and its embedding."""

    label: str = "entity descriptions"
    estimate_row: str = SUMMARIES_ROW
    usage_key: str | None = STAGE

    async def run(self, state: BatchState, services: IndexingServices,
                  progress: StageProgress) -> None:
        """Re-describe and re-embed the entities the write stage touched."""
        merger = DescriptionMerger.from_settings(services.llm, services.settings)
        with progress.stage(self.label, add_total=len(state.entity_ids)) as advance:
            await refresh_entities(services.store, state.entity_ids, merger,
                                   services.embedder, advance)

    def estimate(self, inputs: EstimateInputs) -> list[StageEstimate]:
        """Summary calls past the token budget, for entities and relations together."""
        if not inputs.llm_used:
            return [StageEstimate(self.estimate_row, note="no LLM: extractive descriptions")]
        budget = inputs.settings.extraction.summary_token_budget
        stage = Dependent(self.estimate_row, STAGE, "summarize_descriptions", 4 * budget,
                          inputs.settings.llm.max_tokens)
        return [dependent_row(inputs.profile, inputs.settings, stage, inputs.new_chunks)]


@dataclass
class RelationDescriptions:
    """Each touched relation's description from all its mentions, and its embedding."""

    label: str = "relation descriptions"
    estimate_row: str = SUMMARIES_ROW
    usage_key: str | None = STAGE

    async def run(self, state: BatchState, services: IndexingServices,
                  progress: StageProgress) -> None:
        """Re-describe and re-embed the relations the write stage touched."""
        merger = DescriptionMerger.from_settings(services.llm, services.settings)
        with progress.stage(self.label, add_total=len(state.relation_ids)) as advance:
            await refresh_relations(services.store, state.relation_ids, merger,
                                    services.embedder, advance)

    def estimate(self, inputs: EstimateInputs) -> list[StageEstimate]:  # noqa: ARG002
        """Counted in the entity descriptions' row (one summaries row for both)."""
        return []
