"""The query and eval commands' flags: spelled as documented and mapped onto per-query settings."""

from __future__ import annotations

import re
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.cli.query import _options
from graphrag_neo4j.cli.search_set import search_settings_set
from graphrag_neo4j.errors import InputError
from graphrag_neo4j.query.base import Answer
from graphrag_neo4j.settings import renamed_setting_line

REMOVED_FLAGS = ("--dynamic", "--no-rerank", "--degree", "--hybrid", "--no-hybrid")


@pytest.mark.parametrize("command", [["query"], ["eval", "retrieval"]])
def test_help_offers_set_instead_of_one_flag_per_setting(command: list[str]) -> None:
    _register_subcommands()
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    plain = re.sub(r"\x1b\[[0-9;]*m", "", result.output)
    assert "--set" in plain and "KEY=VALUE" in plain
    assert not [flag for flag in REMOVED_FLAGS if re.search(rf"{flag}\b", plain)]


def test_set_values_are_toml_scalars_under_their_dotted_keys() -> None:
    assert search_settings_set(
        ["hops.degree=2", "hybrid.enabled=false", "hybrid.fusion=rrf", "local.text_unit_prop=0.4",
         'response_type="Single Sentence"']
    ) == {"hops.degree": 2, "hybrid.enabled": False, "hybrid.fusion": "rrf",
          "local.text_unit_prop": 0.4, "response_type": "Single Sentence"}
    assert search_settings_set(None) == {}


def test_an_old_flat_name_is_warned_about_once_and_passed_on_renamed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert search_settings_set(["hops_degree=2"]) == {"hops.degree": 2}
    assert [record.getMessage() for record in caplog.records] == [
        renamed_setting_line("hops_degree", "hops.degree")]


def test_community_level_and_response_type_flags_join_the_set_ones() -> None:
    assert _options(3, "Single Sentence", {"global.dynamic_selection": True}) == {
        "global.dynamic_selection": True, "level": 3, "response_type": "Single Sentence",
    }


class _RecordingEngine:
    """Stands in for GraphRAG: remembers the options a retrieval was asked with."""

    options: ClassVar[dict[str, Any]] = {}

    def __init__(self, **_: Any) -> None: ...

    def __enter__(self) -> _RecordingEngine:
        return self

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        return None

    def retrieve(self, question: str, method: str | None, **options: Any) -> Answer:
        _RecordingEngine.options = options
        return Answer(text="", method=method or "local")


def test_set_reaches_the_query_as_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("graphrag_neo4j.engine.GraphRAG", _RecordingEngine)
    _register_subcommands()
    result = CliRunner().invoke(app, ["query", "Who?", "--method", "hops", "--retrieve-only",
                                      "--set", "hops.degree=2", "--set", "hybrid.enabled=false"])
    assert result.exit_code == 0, result.output
    assert _RecordingEngine.options == {"hops.degree": 2, "hybrid.enabled": False}


@pytest.mark.parametrize(("assignment", "sentence"), [
    ("hops.typo=2", "Unknown search setting hops.typo: use one of response_type,"),
    ("hops.degree=two", "Invalid search setting (hops.degree: Input should be a valid integer"),
    ("hops.degree", "--set takes KEY=VALUE, e.g. --set hops.degree=2, not 'hops.degree'."),
    ("hops.degree=[1, 2]", "--set hops.degree takes one value (a number, true/false or text)"),
])
@pytest.mark.parametrize("command", [["query", "Who?"], ["eval", "retrieval"]])
def test_a_bad_set_is_refused_in_one_sentence_before_any_connection(
    command: list[str], assignment: str, sentence: str, tmp_path: Path
) -> None:
    _register_subcommands()
    questions = tmp_path / "questions.json"
    questions.write_text('[{"question": "Who?", "supporting_passage_ids": ["p1"]}]')
    extra = ["--questions", str(questions)] if command[0] == "eval" else []
    result = CliRunner().invoke(app, [*command, *extra, "--set", assignment])
    assert isinstance(result.exception, InputError)
    message = str(result.exception)
    assert message.startswith(sentence) and message.endswith(".")
    assert ". " not in message.replace("e.g.", "eg") and "\n" not in message  # one sentence
    if "Unknown" in sentence:
        assert "hops.degree" in message and "hybrid.enabled" in message


def test_a_bad_history_file_stops_the_query_before_any_connection(tmp_path: Path) -> None:
    _register_subcommands()
    bad = tmp_path / "turns.json"
    bad.write_text('{"role": "user"}')
    result = CliRunner().invoke(app, ["query", "Who?", "--history", str(bad)])
    assert isinstance(result.exception, InputError)
    assert str(result.exception).startswith(f"History file {bad} is not a JSON list")


class _NotingEngine(_RecordingEngine):
    """A retrieval whose context says what it read."""

    def retrieve(self, question: str, method: str | None, **options: Any) -> Answer:
        answer = Answer(text="", method=method or "global")
        answer.notes.append("Read 34 of level 2's 34 communities, 100% of its 159 entities.")
        return answer


def test_retrieve_only_prints_what_the_context_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("graphrag_neo4j.engine.GraphRAG", _NotingEngine)
    _register_subcommands()
    result = CliRunner().invoke(app, ["query", "Themes?", "--method", "global",
                                      "--retrieve-only"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Read 34 of level 2's 34 communities, 100% of its 159 entities." in result.output
