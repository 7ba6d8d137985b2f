"""The write stage: the batch's resolved mentions become entities and relations in Neo4j."""

from __future__ import annotations

import asyncio

from graphrag_neo4j.indexing.extraction.base import IndexingServices
from graphrag_neo4j.indexing.graph.type_labels import TypeLabels
from graphrag_neo4j.indexing.graph.writer import write_mentions
from graphrag_neo4j.indexing.stages.base import BatchState, EstimateInputs
from graphrag_neo4j.llm.costs.estimate import StageEstimate
from graphrag_neo4j.runtime.progress import StageProgress


class WriteStage:
    """Batched, idempotent MERGEs of entities, relations and their per-chunk provenance."""

    label = "write graph"
    estimate_row = "graph writes"
    usage_key: str | None = None

    async def run(self, state: BatchState, services: IndexingServices,
                  progress: StageProgress) -> None:
        """Write the mentions; the touched entity and relation ids go on `state`."""
        assert state.resolution is not None, "the resolve stage runs before the write stage"
        with progress.stage(self.label, add_total=1) as advance:
            state.entity_ids, state.relation_ids = await asyncio.to_thread(
                write_mentions, services.store, state.extractions, state.resolution, None,
                TypeLabels.from_settings(services.settings),
            )
            advance(1)

    def estimate(self, inputs: EstimateInputs) -> list[StageEstimate]:  # noqa: ARG002
        """Neo4j writes: no model call, so nothing to pay."""
        return [StageEstimate(self.estimate_row, note="Neo4j writes, no model calls")]
