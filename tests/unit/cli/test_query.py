"""The query and eval commands' flags: spelled as documented and mapped onto per-query settings."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.cli.options.search_set import search_settings_set, settings_with
from graphrag_neo4j.cli.query import _options
from graphrag_neo4j.query.base import Answer, Note, make_query
from graphrag_neo4j.runtime.errors import InputError
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


def test_set_on_the_command_line_raises_the_ceiling_a_query_could_not_raise() -> None:
    # The CLI's user is the operator: --set is their settings, not a client's option.
    overrides = search_settings_set(["cypher.max_rows=500"])
    with pytest.raises(InputError, match="more than the 50 the settings allow"):
        make_query(settings_with({}), "Who is Scrooge?", **overrides)
    query = make_query(settings_with(overrides), "Who is Scrooge?", **overrides)
    assert query.search.cypher.max_rows == 500


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


class _CypherEngine(_RecordingEngine):
    """Stands in for GraphRAG: a cypher retrieval that found one row."""

    def retrieve(self, question: str, method: str | None, **options: Any) -> Answer:
        return Answer(text="", method="cypher", sources={
            "Results": [{"count": 7}], "Cypher": [{"query": "MATCH (n) RETURN count(n)"}]})


def test_retrieve_only_counts_every_context_table_and_prints_json_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("graphrag_neo4j.engine.GraphRAG", _CypherEngine)
    _register_subcommands()
    shown = CliRunner().invoke(app, ["query", "How many?", "--method", "cypher",
                                     "--retrieve-only"])
    assert shown.exit_code == 0, shown.output
    assert "cypher context: 1 results (no answer call)." in shown.output
    assert "nothing found" not in shown.output
    as_json = CliRunner().invoke(app, ["query", "How many?", "--method", "cypher",
                                       "--retrieve-only", "--json"])
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.stdout)["sources"]["Results"] == [{"count": 7}]


class _CitingEngine(_RecordingEngine):
    """Stands in for GraphRAG: answers citing one passage of a PDF and one HTML section."""

    class _Method:
        streams = False

    def query_method(self, method: str | None) -> Any:
        return self._Method()

    def query(self, question: str, method: str | None, **options: Any) -> Answer:
        answer = Answer(text="Press u, then g. [Data: Sources (1, 2)]", method="naive")
        answer.citations = [
            {"table": "Sources", "ref": 1, "chunk_id": "c1", "where": "manual.pdf p. 12"},
            {"table": "Sources", "ref": 2, "chunk_id": "c7",
             "where": "guide.html, Install > Upgrading"},
        ]
        return answer


def test_the_answer_is_followed_by_a_legend_of_its_citations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("graphrag_neo4j.engine.GraphRAG", _CitingEngine)
    _register_subcommands()
    result = CliRunner().invoke(app, ["query", "How do I upgrade?", "--method", "naive"])
    assert result.exit_code == 0, result.output
    answer_at = result.output.index("Press u, then g.")
    first = result.output.index("Sources (1): manual.pdf p. 12")
    assert answer_at < first < result.output.index("Sources (2): guide.html, Install > Upgrading")


class _NotingEngine(_RecordingEngine):
    """A retrieval whose context says what it read."""

    def retrieve(self, question: str, method: str | None, **options: Any) -> Answer:
        answer = Answer(text="", method=method or "global")
        answer.notes.append(
            Note.info("Read 34 of level 2's 34 communities, 100% of its 159 entities.")
        )
        return answer


def test_retrieve_only_prints_what_the_context_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("graphrag_neo4j.engine.GraphRAG", _NotingEngine)
    _register_subcommands()
    result = CliRunner().invoke(app, ["query", "Themes?", "--method", "global",
                                      "--retrieve-only"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Read 34 of level 2's 34 communities, 100% of its 159 entities." in result.output
