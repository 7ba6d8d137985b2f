"""The stages of a run and the estimate cannot drift: every stage has its estimate row."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.costs.estimate import estimate_documents
from graphrag_neo4j.indexing.extraction.registry import extraction_method_names
from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.indexing.stages import registry as stage_list
from graphrag_neo4j.indexing.stages.base import CHUNKS_ROW, BatchState, EstimateInputs
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.costs.estimate import StageEstimate
from graphrag_neo4j.llm.testing import FakeEmbeddings, pipeline_fake_llm
from graphrag_neo4j.runtime.errors import Neo4jUnavailableError
from graphrag_neo4j.runtime.progress import StageProgress
from graphrag_neo4j.settings import Settings

INDEXING = Path(__file__).parents[4] / "graphrag_neo4j" / "indexing"


def _unreachable() -> Store:
    raise Neo4jUnavailableError("Neo4j is not reachable at bolt://127.0.0.1:1.")


async def _estimate_rows(tmp_path: Path, method: str) -> set[str]:
    settings = Settings(cache_dir=tmp_path)
    llm = LLMCaller(pipeline_fake_llm(), settings.llm, tmp_path)
    embedder = EmbeddingCaller(FakeEmbeddings(), settings.embedding, tmp_path)
    documents = [Document("d1", "d1", "d1.txt", "Leonhard Euler wrote a paper in Basel.")]
    try:
        estimate = await estimate_documents(documents, settings, _unreachable, llm, embedder,
                                            method=method)
    finally:
        llm.close()
        embedder.close()
    return {row.stage for row in estimate.stages}


def _missing_rows(rows: set[str]) -> list[str]:
    return [f"{stage.label} -> {stage.estimate_row}" for stage in stage_list.AFTER_EXTRACTION
            if stage.estimate_row not in rows]


@pytest.mark.parametrize("method", extraction_method_names())
async def test_every_stage_of_the_run_has_its_row_in_the_estimate(
    tmp_path: Path, method: str
) -> None:
    rows = await _estimate_rows(tmp_path, method)
    assert CHUNKS_ROW in rows
    assert {"extraction", "gleaning"} <= rows
    assert _missing_rows(rows) == []


class _ClaimsStage:
    """A stage added to the list without an estimate row of its own."""

    label = "claims"
    estimate_row = "claims"
    usage_key: str | None = "claims"

    async def run(self, state: BatchState, services: object, progress: StageProgress) -> None:
        return None

    def estimate(self, inputs: EstimateInputs) -> list[StageEstimate]:
        return []


async def test_a_stage_without_an_estimate_row_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stage_list, "AFTER_EXTRACTION",
                        (*stage_list.AFTER_EXTRACTION, _ClaimsStage()))
    assert _missing_rows(await _estimate_rows(tmp_path, "llm")) == ["claims -> claims"]


def _progress_calls(tree: ast.AST) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and node.func.attr in {"stage", "declare"}
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "progress"]


def test_the_run_names_its_progress_stages_only_through_the_stage_constants() -> None:
    # A literal label would be a stage the estimate does not know of.
    # interop/ imports another engine's tables, a run without an estimate: its bars are named
    # after those tables.
    run = [p for p in INDEXING.rglob("*.py") if "interop" not in p.relative_to(INDEXING).parts]
    literal = [
        f"{path.relative_to(INDEXING)}:{call.lineno}"
        for path in run
        for call in _progress_calls(ast.parse(path.read_text(encoding="utf-8")))
        if call.args and isinstance(call.args[0], ast.Constant)
    ]
    checked = [p for p in run if _progress_calls(ast.parse(p.read_text()))]
    assert len(checked) >= 3 and literal == []


def test_stage_labels_and_method_labels_are_distinct() -> None:
    labels = [stage.label for stage in stage_list.AFTER_EXTRACTION]
    assert len(labels) == len(set(labels))
