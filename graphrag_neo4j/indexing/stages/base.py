"""What a stage after extraction is: a progress label, its estimate row, its usage key, run."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from graphrag_neo4j.indexing.extraction.base import Batch, DescriptionStyle, IndexingServices
from graphrag_neo4j.indexing.records import ChunkExtraction
from graphrag_neo4j.indexing.run.run_report import IndexStats

if TYPE_CHECKING:
    from graphrag_neo4j.indexing.resolution.aliases import AliasScope
    from graphrag_neo4j.indexing.resolution.decisions import Resolution
    from graphrag_neo4j.llm.costs.estimate import StageEstimate
    from graphrag_neo4j.llm.costs.profile import ModelProfile
    from graphrag_neo4j.runtime.progress import StageProgress
    from graphrag_neo4j.settings import Settings


# The stage before extraction: chunk vectors and chunk writes, counted in the embeddings row.
CHUNKS_LABEL, CHUNKS_ROW = "embed + write chunks", "embeddings"


@dataclass
class BatchState:
    """One batch on its way through the stages: each reads what the ones before it left."""

    batch: Batch
    extractions: list[ChunkExtraction]
    stats: IndexStats
    resolution: Resolution | None = None
    # Where each name of the run's whole input occurs, when the method decides over it (fast
    # extraction's alias folding reads it); None: the batch's own.
    scope: AliasScope | None = None
    entity_ids: set[str] = field(default_factory=set)
    relation_ids: set[str] = field(default_factory=set)
    embed_relations: bool = True  # the extraction method's: give relations sentence vectors
    descriptions: DescriptionStyle = field(default_factory=DescriptionStyle)  # the method's
    fold_aliases: bool = False  # the method's: resolution folds short names into full ones


@dataclass(frozen=True)
class EstimateInputs:
    """What a stage's estimate row is computed from: no LLM call, no write."""

    profile: ModelProfile
    settings: Settings
    new_chunks: float  # chunks extraction would (re)read, so the stages after it see
    llm_used: bool  # whether the run has an LLM at all (the extraction method needs one)


class BatchStage(Protocol):
    """One stage after extraction, run per batch under the graph lock.

    `label` names its progress bar and its time in the summary; `estimate_row` names the row
    of `index --estimate` that counts its cost (a test fails if the estimate has no such row);
    `usage_key` is the stage its LLM calls are recorded under (None: it calls no LLM).
    """

    label: str
    estimate_row: str
    usage_key: str | None

    async def run(self, state: BatchState, services: IndexingServices,
                  progress: StageProgress) -> None:
        """Do this stage's part for the batch, leaving its results on `state`."""
        ...

    def estimate(self, inputs: EstimateInputs) -> list[StageEstimate]:
        """Its estimate rows (none when another stage's row counts its cost too)."""
        ...
