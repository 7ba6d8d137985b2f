"""Data budgets shrink to fit a local model's window; API models keep the configured ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.llm.offline.llm import LocalLlamaChatModel
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.llm.tokens.context_window import (
    PROMPT_OVERHEAD_TOKENS,
    SMALLEST_BUDGET,
    fit_to_window,
    model_window,
)
from graphrag_neo4j.settings import Settings, context_budgets


def test_budgets_leave_room_for_prompt_and_answer() -> None:
    settings = Settings()
    fitted = fit_to_window(settings, 8192)
    room = (8192 - settings.llm.max_tokens - PROMPT_OVERHEAD_TOKENS
            - settings.search.history_tokens)
    assert fitted.search.local.context_tokens == room < settings.search.local.context_tokens
    assert fitted.search.global_.map_batch_tokens == room
    assert fitted.search.global_.reduce_tokens == room
    assert fitted.search.drift.reduce_tokens == room < settings.search.drift.reduce_tokens
    assert fitted.search.passage_context_tokens == settings.search.passage_context_tokens
    assert fitted.search.drift.followup_tokens == settings.search.drift.followup_tokens
    report_room = 8192 - settings.communities.report_max_tokens - PROMPT_OVERHEAD_TOKENS
    assert fitted.communities.report_max_input_tokens == min(
        settings.communities.report_max_input_tokens, report_room
    )


def test_every_marked_budget_fits_a_small_window_cypher_included() -> None:
    fitted = fit_to_window(Settings(), 3000)  # leaves less than the smallest budget for data
    assert fitted.search.cypher.context_tokens == SMALLEST_BUDGET
    budgets = context_budgets(Settings, "answer") + context_budgets(Settings, "report")
    assert len(budgets) >= 9
    assert {name: _value(fitted, name) for name in budgets} == dict.fromkeys(
        budgets, SMALLEST_BUDGET)


def _value(settings: Settings, dotted: str) -> object:
    """A setting by the name the settings file gives it (`search.global.reduce_tokens`)."""
    value: object = settings
    for part in dotted.split("."):
        value = getattr(value, "global_" if part == "global" else part)
    return value


def test_a_large_window_changes_nothing() -> None:
    settings = Settings()
    assert fit_to_window(settings, 128_000) == settings


def test_the_window_comes_from_the_model_or_the_local_provider(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    local = LocalLlamaChatModel(model_path=Path("m.gguf"), n_ctx=4096)
    assert model_window(Settings(), local) == 4096
    assert model_window(Settings(), FakeChatModel(rules=[])) is None
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert model_window(Settings(), None) == Settings().llm.n_ctx  # offline default
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert model_window(Settings(), None) is None
