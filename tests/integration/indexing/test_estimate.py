"""Estimates against real runs on the test Neo4j with the pipeline fake: calls and prompt tokens
as predicted, nothing left to pay afterwards, and --max-llm-calls / --max-cost stop and resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.costs.budget import Budget, BudgetExceededError
from graphrag_neo4j.llm.costs.estimate import Range
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings, pipeline_fake_llm
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "sample" / "christmas_carol_stave_one.md"
BOOK = REPO / "sample" / "a_christmas_carol.txt"


def _settings(settings: Settings, tmp_path: Path) -> Settings:
    return settings.model_copy(update={
        "cache_dir": tmp_path / "cache",
        "llm": settings.llm.model_copy(update={"prompt_price_per_1m": 0.15,
                                               "completion_price_per_1m": 0.60}),
        "chunking": settings.chunking.model_copy(update={"size": 600, "overlap": 60}),
        "extraction": settings.extraction.model_copy(update={"gleaning_passes": 1}),
    })


def _rag(settings: Settings, llm: FakeChatModel, budget: Budget | None = None) -> GraphRAG:
    return GraphRAG(settings, llm=llm, embeddings=FakeEmbeddings(), budget=budget)


def _documents(folder: Path, count: int) -> list[Path]:
    """`count` passages of the book (far from stave one) as separate files."""
    folder.mkdir(parents=True, exist_ok=True)
    text = BOOK.read_text(encoding="utf-8")
    paths = []
    for number in range(count):
        path = folder / f"passage_{number}.txt"
        start = 60_000 + number * 2_500
        path.write_text(text[start : start + 2_400], encoding="utf-8")
        paths.append(path)
    return paths


def _inside(actual: float, predicted: Range) -> bool:
    return predicted.low <= actual <= predicted.high


def test_estimate_matches_the_run_and_afterwards_everything_is_free(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    tuned = _settings(settings, tmp_path)
    llm = pipeline_fake_llm()
    with _rag(tuned, llm) as rag:  # an earlier run teaches the model's completion ratios
        rag.index(_documents(tmp_path / "warmup", 3))
    store.run_autocommit("database/delete_all")
    with _rag(tuned, llm) as rag:
        estimate = rag.estimate([SAMPLE])
        assert rag.counts()["documents"] == 0, "the estimate wrote to Neo4j"
        calls_before = len(llm.calls)
        rag.index([SAMPLE])
        rag.build_communities()
        used = rag.llm.usage.stages()
    assert calls_before == len(llm.calls) - sum(u.calls for u in used.values())
    for row, stage in (("extraction", "extract"), ("gleaning", "glean")):
        predicted, actual = estimate.stage(row), used[stage]
        assert predicted.calls == Range.of(actual.calls), row
        assert abs(predicted.prompt_tokens.expected - actual.prompt_tokens) <= (
            0.05 * actual.prompt_tokens), row
        assert _inside(actual.completion_tokens, predicted.completion_tokens), row
    assert estimate.stage("extraction").prompt_tokens == Range.of(used["extract"].prompt_tokens)

    with _rag(tuned, llm) as rag:
        again = rag.estimate([SAMPLE])
        reports = rag.estimate_communities()
    assert again.all_cached and again.facts["documents unchanged (skipped)"] == 1
    assert again.total().cost == Range.of(0) and again.total().calls == Range.of(0)
    assert reports.total().calls == Range.of(0) and reports.total().cost == Range.of(0)
    communities = reports.facts["communities"]
    assert isinstance(communities, int) and communities > 0
    small = reports.facts["too small for a report"]  # never reported: nothing to reuse
    assert isinstance(small, int)
    assert reports.facts["reports reused from the graph"] == communities - small


def test_max_llm_calls_stops_before_the_batch_and_names_what_is_left(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    llm = pipeline_fake_llm()
    paths = _documents(tmp_path / "docs", 3)
    with _rag(_settings(settings, tmp_path), llm, Budget(max_calls=2)) as rag, pytest.raises(
        BudgetExceededError
    ) as err:
        rag.index(paths)
    message = str(err.value)
    assert message.startswith("Stopped before batch 1") and "--max-llm-calls 2" in message
    assert "0 documents were indexed completely; 3 documents (" in message
    assert "run the same command again" in message
    assert llm.calls == [] and store.read("database/count_graph")[0]["documents"] == 0


def test_a_call_passing_the_limit_stops_the_run_and_a_rerun_resumes(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    tuned = _settings(settings, tmp_path)
    llm = pipeline_fake_llm()
    with _rag(tuned, llm) as rag:
        rag.index(_documents(tmp_path / "docs", 3))
    indexed = store.read("database/count_graph")[0]
    with _rag(tuned, llm, Budget(max_calls=1)) as rag, pytest.raises(
        BudgetExceededError, match="Stopped community reports before report 2 of "
    ):
        rag.build_communities()
    assert store.read("database/count_graph")[0]["entities"] == indexed["entities"]  # kept
    calls_when_stopped = len(llm.calls)
    with _rag(tuned, llm) as rag:
        stats = rag.build_communities()
    assert stats.reports_generated > 1 and stats.reports_fallback == 0
    assert stats.reports_reused == 1  # the report written before the stop was stored
    prompts = [call.prompt for call in llm.calls]
    assert len(prompts) == len(set(prompts)), "the resumed run paid for a reply twice"
    assert len(llm.calls) - calls_when_stopped == stats.reports_generated


def test_max_cost_stops_before_a_batch_that_would_pass_it(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    tuned = _settings(settings, tmp_path)
    llm = pipeline_fake_llm()
    with _rag(tuned, llm) as rag:
        least = rag.estimate([SAMPLE]).stage("extraction").cost
    assert least is not None and least.low > 0
    with _rag(tuned, llm, Budget(max_cost=least.low / 2)) as rag, pytest.raises(
        BudgetExceededError, match="Stopped before batch 1"
    ) as err:
        rag.index([SAMPLE])
    assert "1 documents (" in str(err.value) and llm.calls == []
    assert store.read("database/count_graph")[0]["documents"] == 0
