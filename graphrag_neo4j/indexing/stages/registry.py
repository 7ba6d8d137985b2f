"""The stages after extraction, in the order a batch runs them: the only list of them."""

from __future__ import annotations

from graphrag_neo4j.indexing.stages.base import BatchStage
from graphrag_neo4j.indexing.stages.describe import ENTITY_DESCRIPTIONS, RELATION_DESCRIPTIONS
from graphrag_neo4j.indexing.stages.resolve import ResolveStage
from graphrag_neo4j.indexing.stages.write import WriteStage

# Adding a stage: one module with a class that meets BatchStage, plus one line here; the
# estimate then asks it for its row (tests/unit/indexing/stages/test_stage_list.py fails
# without one).
AFTER_EXTRACTION: tuple[BatchStage, ...] = (
    ResolveStage(),
    WriteStage(),
    ENTITY_DESCRIPTIONS,
    RELATION_DESCRIPTIONS,
)
