"""The resolution stage: every mention of the batch mapped to an entity, each merge recorded."""

from __future__ import annotations

from graphrag_neo4j.indexing.costs.dependent_stages import Dependent, dependent_row
from graphrag_neo4j.indexing.extraction.base import IndexingServices
from graphrag_neo4j.indexing.resolution.aliases import AliasScope
from graphrag_neo4j.indexing.resolution.decisions import STAGE
from graphrag_neo4j.indexing.resolution.stage import ResolvingStage
from graphrag_neo4j.indexing.stages.base import BatchState, EstimateInputs
from graphrag_neo4j.llm.costs.estimate import StageEstimate
from graphrag_neo4j.runtime.progress import StageProgress


class ResolveStage:
    """Same-name grouping always; type conflicts and near-duplicates decided by the LLM."""

    label = "resolve entities"
    estimate_row = "resolution"
    usage_key: str | None = STAGE

    async def run(self, state: BatchState, services: IndexingServices,
                  progress: StageProgress) -> None:
        """Resolve the batch's mentions into `state.resolution`."""
        settings = services.settings
        stage = ResolvingStage(services.store, settings.extraction, services.embedder,
                               services.llm, settings.prompts_dir, state.fold_aliases)
        scope = state.scope or AliasScope.of(
            state.extractions, {c.id: c.document_id for c in state.batch.all_chunks})
        with progress.stage(self.label, add_total=1) as advance:
            state.resolution = await stage.resolve(state.extractions, scope)
            advance(1)

    def estimate(self, inputs: EstimateInputs) -> list[StageEstimate]:
        """Calls per extracted chunk, from earlier runs or the rule of thumb."""
        if not inputs.llm_used:
            return [StageEstimate(self.estimate_row, note="no LLM in this run")]
        if not inputs.settings.extraction.resolution:
            return [StageEstimate(self.estimate_row, note="resolution is off")]
        stage = Dependent(self.estimate_row, STAGE, "indexing/resolve_entities", 600,
                          inputs.settings.llm.max_tokens)
        return [dependent_row(inputs.profile, inputs.settings, stage, inputs.new_chunks)]
