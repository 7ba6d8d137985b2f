"""The query command's flags: spelled as documented and mapped onto per-query settings."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.cli.query import _options
from graphrag_neo4j.errors import InputError


def test_help_spells_the_hops_flags_once() -> None:
    _register_subcommands()
    result = CliRunner().invoke(app, ["query", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    plain = re.sub(r"\x1b\[[0-9;]*m", "", result.output)
    assert "--no-rerank" in plain and "--no-no-rerank" not in plain
    assert "--degree" in plain


def test_hops_flags_become_setting_overrides() -> None:
    assert _options(None, None, False, True, 2) == {"hops_rerank": False, "hops_degree": 2}
    assert _options(3, "Single Sentence", True, False) == {
        "level": 3, "response_type": "Single Sentence", "dynamic_selection": True,
    }


def test_a_bad_history_file_stops_the_query_before_any_connection(tmp_path: Path) -> None:
    _register_subcommands()
    bad = tmp_path / "turns.json"
    bad.write_text('{"role": "user"}')
    result = CliRunner().invoke(app, ["query", "Who?", "--history", str(bad)])
    assert isinstance(result.exception, InputError)
    assert str(result.exception).startswith(f"History file {bad} is not a JSON list")
