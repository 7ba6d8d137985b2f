"""Community reports under --max-llm-calls / --max-cost on the nano graph with the fake LLM:
exactly the reports that fit are written and stored, the stop says what is left, the limit is
never passed, and a run without a limit writes only the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.communities.report_budget import ReportsStoppedError
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.costs.budget import Budget
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings
from tests.api_fakes import fake_report, serving_llm, serving_settings
from tests.nano_fakes import load_nano, nano_fake_llm, write_nano_passages

pytestmark = pytest.mark.integration
REPORT = "briefing reports on communities"
RETRY = "Your previous answer was not valid JSON"
PROMPT_PRICE, COMPLETION_PRICE = 0.15, 0.60  # USD per million tokens


def _rag(settings: Settings, tmp_path: Path, llm: FakeChatModel, budget: Budget | None = None
         ) -> GraphRAG:
    tuned = serving_settings(settings, tmp_path / "cache")
    tuned = tuned.model_copy(update={"llm": tuned.llm.model_copy(update={
        "prompt_price_per_1m": PROMPT_PRICE, "completion_price_per_1m": COMPLETION_PRICE})})
    return GraphRAG(tuned, llm=llm, embeddings=FakeEmbeddings(), budget=budget)


def _report_calls(llm: FakeChatModel) -> int:
    return sum(REPORT in call.prompt for call in llm.calls)


def _stored(store: Store) -> dict[str, int]:
    """LLM reports and extractive summaries in the graph."""
    rows = store.read("communities/community_overview")
    return {key: sum(int(row[key] or 0) for row in rows) for key in ("reports", "extractive")}


def _nano_input(nano_root: Path, tmp_path: Path
                ) -> tuple[dict[str, Any], list[Path], FakeChatModel]:
    """The nano dataset, its passages as files and a fake LLM answering every build prompt."""
    dataset = load_nano(nano_root)
    return dataset, write_nano_passages(dataset, tmp_path / "docs"), serving_llm(dataset)


@pytest.fixture
def nano(store: Store, settings: Settings, nano_root: Path, tmp_path: Path) -> dict[str, Any]:
    """The nano passages indexed (no communities yet) and the reports a build would write."""
    dataset, paths, llm = _nano_input(nano_root, tmp_path)
    with _rag(settings, tmp_path, llm) as rag:
        rag.index(paths)
        facts = rag.estimate_communities().facts
    to_write, small = facts["reports to write"], facts["too small for a report"]
    assert isinstance(to_write, int) and to_write >= 4 and isinstance(small, int)
    return {"dataset": dataset, "llm": llm, "reports": to_write, "small": small}


def test_a_call_limit_writes_exactly_that_many_reports_and_a_rerun_writes_only_the_rest(
    store: Store, settings: Settings, tmp_path: Path, nano: dict[str, Any]
) -> None:
    llm, total = nano["llm"], nano["reports"]
    allowed = total // 2
    budget = Budget(max_calls=allowed)
    with _rag(settings, tmp_path, llm, budget) as rag, pytest.raises(ReportsStoppedError) as err:
        rag.build_communities(reports="all")
    message = str(err.value)
    assert message.startswith("Stopped community reports before report ")
    assert f"would pass --max-llm-calls {allowed}" in message
    assert f": {allowed} reports written and stored this run (0 reused)" in message
    assert f", {total - allowed} left with their extractive summaries (estimated $" in message
    assert _report_calls(llm) == allowed and budget.calls == allowed
    small = nano["small"]  # communities below communities.min_report_size keep their extracts
    assert _stored(store) == {"reports": allowed, "extractive": total - allowed + small}
    assert len(err.value.left) == total - allowed
    # The extracts no report replaced still get their vectors (the build skipped them first).
    assert all(row["embedded"] for row in store.read("communities/reports/list_community_reports"))

    calls_before = len(llm.calls)
    with _rag(settings, tmp_path, llm) as rag:
        stats = rag.build_communities(reports="all")
    assert stats.reports_generated == total - allowed and stats.reports_reused == allowed
    assert _report_calls(llm) == total and len(llm.calls) - calls_before == total - allowed
    prompts = [call.prompt for call in llm.calls if REPORT in call.prompt]
    assert len(set(prompts)) == total, "a report was paid for twice"
    assert _stored(store) == {"reports": total, "extractive": small}


def test_no_llm_calls_allowed_writes_no_report_and_says_so(
    store: Store, settings: Settings, tmp_path: Path, nano: dict[str, Any]
) -> None:
    llm, total = nano["llm"], nano["reports"]
    with _rag(settings, tmp_path, llm, Budget(max_calls=0)) as rag, pytest.raises(
        ReportsStoppedError
    ) as err:
        rag.build_communities(reports="all")
    message = str(err.value)
    assert message.startswith("Stopped community reports before report 1 of ")
    assert "would pass --max-llm-calls 0 (0 LLM calls, $0.0000 used): 0 reports written" in message
    assert f", {total} left with their extractive summaries" in message
    assert _report_calls(llm) == 0
    assert _stored(store) == {"reports": 0, "extractive": total + nano["small"]}


def test_a_cost_limit_is_never_passed(
    store: Store, settings: Settings, tmp_path: Path, nano: dict[str, Any]
) -> None:
    llm, total = nano["llm"], nano["reports"]
    # One report at its worst (a full max_tokens reply) and a half: the stage admits reports
    # while the worst case fits, the short fake replies leave room for a few more.
    limit = 1.5 * settings.communities.report_max_tokens * COMPLETION_PRICE / 1e6
    budget = Budget(max_cost=limit)
    with _rag(settings, tmp_path, llm, budget) as rag:
        with pytest.raises(ReportsStoppedError) as err:
            rag.build_communities(reports="all")
        used = rag.llm.usage.stages()
    assert f"would pass --max-cost {limit:g} USD" in str(err.value)
    reports = used["community reports"]
    paid = (reports.prompt_tokens * PROMPT_PRICE + reports.completion_tokens * COMPLETION_PRICE
            ) / 1e6
    written = _stored(store)["reports"]
    assert 0 < written < total and reports.calls == written == _report_calls(llm)
    assert paid <= limit and budget.cost == pytest.approx(paid)


def test_the_index_budget_reaches_the_reports_it_builds_afterwards(
    store: Store, settings: Settings, tmp_path: Path, nano_root: Path
) -> None:
    _, paths, llm = _nano_input(nano_root, tmp_path)
    budget = Budget(max_calls=10_000)
    with _rag(settings, tmp_path, llm, budget) as rag:
        rag.index(paths)
        assert budget.calls == len(llm.calls) > 0  # extraction spent from the same budget
        budget.max_calls = budget.calls + 2
        with pytest.raises(ReportsStoppedError, match=r": 2 reports written and stored this run"):
            rag.build_communities(reports="all")
    assert _report_calls(llm) == 2 and budget.calls == budget.max_calls


def test_a_retry_the_budget_refuses_leaves_its_report_unwritten(
    store: Store, settings: Settings, tmp_path: Path, nano: dict[str, Any]
) -> None:
    llm = nano_fake_llm(nano["dataset"], extra=[(RETRY, fake_report), (REPORT, "No report.")])
    with _rag(settings, tmp_path, llm, Budget(max_calls=1)) as rag, pytest.raises(
        ReportsStoppedError
    ) as err:
        rag.build_communities(reports="all")
    assert ", whose retry after an invalid reply would pass --max-llm-calls 1" in str(err.value)
    assert ": 0 reports written and stored this run" in str(err.value)
    assert _report_calls(llm) == 1 and _stored(store)["reports"] == 0
