"""`communities --build --max-cost / --max-llm-calls` reach the engine as its run budget."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from graphrag_neo4j import engine as engine_module
from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.llm.costs.budget import Budget
from graphrag_neo4j.runtime.errors import InputError


class _OpenedError(Exception):
    """Raised by the stand-in engine once it has seen its arguments."""


def test_the_limits_reach_the_engine_as_one_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def engine(**kwargs: Any) -> None:
        seen.update(kwargs)
        raise _OpenedError

    monkeypatch.setattr(engine_module, "GraphRAG", engine)
    _register_subcommands()
    result = CliRunner().invoke(
        app, ["communities", "--build", "--max-cost", "0.25", "--max-llm-calls", "40"])
    assert isinstance(result.exception, _OpenedError)
    assert seen["budget"] == Budget(max_cost=0.25, max_calls=40)


def test_limits_without_build_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_module, "GraphRAG", lambda **_: pytest.fail("engine opened"))
    _register_subcommands()
    result = CliRunner().invoke(app, ["communities", "--max-llm-calls", "3"])
    assert isinstance(result.exception, InputError)
    assert "add --build" in str(result.exception)


@pytest.mark.parametrize("command", [["communities", "--build"], ["index", "docs"]])
def test_a_negative_limit_is_a_usage_error(command: list[str]) -> None:
    _register_subcommands()
    result = CliRunner().invoke(app, [*command, "--max-llm-calls", "-1"])
    assert result.exit_code == 2 and "--max-llm-calls" in result.output
