"""ARCHITECTURE.md's indexing recipes, followed once: a new extraction method and a new stage
after extraction are one class each plus one registry or list line, and they really run."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.extraction import registry as extraction_registry
from graphrag_neo4j.indexing.extraction.base import (
    Advance,
    Batch,
    DescriptionStyle,
    IndexingServices,
)
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction, EntityMention
from graphrag_neo4j.indexing.stages import registry as stage_list
from graphrag_neo4j.indexing.stages.base import BatchState, EstimateInputs
from graphrag_neo4j.llm.costs.estimate import StageEstimate
from graphrag_neo4j.llm.costs.profile import ModelProfile
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.runtime.progress import StageProgress
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration
CAPITALISED = re.compile(r"\b[A-Z][a-z]{3,}\b")


@dataclass
class CapitalsExtraction:
    """Every capitalised word of four letters or more is a `name` entity."""

    services: IndexingServices
    name = "capitals"
    description = "Capitalised words as entities, for the recipe test."
    progress_label = "extract (capitals)"
    needs_llm = False
    llm_extracted = False
    cooccurrence_relations = False
    folds_aliases = False
    embeds_relations = True
    description_style = DescriptionStyle()

    async def extract(self, batch: Batch, advance: Advance) -> list[ChunkExtraction]:
        found = []
        for chunk in batch.all_chunks:
            names = sorted(set(CAPITALISED.findall(chunk.text)))
            mentions = [EntityMention(chunk.id, n, "name", f"{n} is named.") for n in names]
            found.append(ChunkExtraction(chunk_id=chunk.id, entities=mentions))
            advance(1)
        return found

    def estimate(self, chunks: Sequence[Chunk], profile: ModelProfile) -> list[StageEstimate]:
        return [StageEstimate("extraction", note=f"{len(chunks)} chunks, no LLM"),
                StageEstimate("gleaning", note="none")]


@dataclass
class CountingStage:
    """Counts the entities each batch touched: a stage after extraction."""

    seen: list[int] = field(default_factory=list)
    label: str = "count entities"
    estimate_row: str = "entity count"
    usage_key: str | None = None

    async def run(self, state: BatchState, services: IndexingServices,
                  progress: StageProgress) -> None:
        with progress.stage(self.label, add_total=1) as advance:
            self.seen.append(len(state.entity_ids))
            advance(1)

    def estimate(self, inputs: EstimateInputs) -> list[StageEstimate]:
        return [StageEstimate(self.estimate_row, note=f"{inputs.new_chunks:.0f} chunks")]


def test_a_new_method_and_a_new_stage_run_and_are_estimated(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(extraction_registry.METHODS, "capitals", CapitalsExtraction)
    counting = CountingStage()
    monkeypatch.setattr(stage_list, "AFTER_EXTRACTION", (*stage_list.AFTER_EXTRACTION, counting))
    source = tmp_path / "docs" / "euler.txt"
    source.parent.mkdir()
    source.write_text("Leonhard Euler studied in Basel under Johann Bernoulli.\n")
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    with GraphRAG(tuned, llm=FakeChatModel(), embeddings=FakeEmbeddings()) as rag:
        estimate = rag.estimate([source], "capitals", reports=False)
    with GraphRAG(tuned, embeddings=FakeEmbeddings()) as rag:
        stats, _ = rag.index([source], "capitals")
        assert not rag.llm_in_use  # the method needs none, so no model was loaded
    names = {
        row["name"] for row in store.read("indexing/entities/list_entities", skip=0, limit=100)
    }
    assert names == {"Leonhard", "Euler", "Basel", "Johann", "Bernoulli"}
    assert counting.seen == [stats.entities] and stats.entities == 5
    assert {"extract (capitals)", "count entities"} <= set(stats.stage_seconds)
    assert estimate.stage("entity count").note == "1 chunks"
