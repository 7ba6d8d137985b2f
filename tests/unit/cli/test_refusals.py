"""The CLI refuses what cannot work before loading anything, and prints data as plain text."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from graphrag_neo4j import engine as engine_module
from graphrag_neo4j.cli import query as cli_query
from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.query.base import Answer, Note
from graphrag_neo4j.runtime.errors import ConfigError, InputError


def _no_engine(*_: object, **__: object) -> None:
    raise AssertionError("the engine must not be opened for this input")


@pytest.mark.parametrize("question", ["", "   ", "\n\t"])
def test_an_empty_question_is_refused_before_anything_loads(
    question: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_module, "GraphRAG", _no_engine)
    _register_subcommands()
    result = CliRunner().invoke(app, ["query", question])
    assert isinstance(result.exception, InputError)
    assert "question is empty" in str(result.exception)


def test_index_fails_when_every_input_was_skipped(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("  \n")
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01\x02" * 100)
    _register_subcommands()
    # No Neo4j and no model are reachable here: the refusal comes before either is used.
    result = CliRunner().invoke(app, ["index", str(tmp_path), "--no-communities"])
    assert result.exit_code != 0
    assert isinstance(result.exception, InputError)
    assert "Nothing to index: all 2 inputs were skipped" in str(result.exception)


def test_context_and_notes_with_markup_print_verbatim(monkeypatch: pytest.MonkeyPatch) -> None:
    sink = io.StringIO()
    monkeypatch.setattr(cli_query, "console", Console(file=sink, width=200))
    monkeypatch.setattr(cli_query, "out", Console(file=sink, width=200))
    answer = Answer(text="An answer.", method="local", context="Title: [/bold] and [red]x[/]",
                    notes=[Note.info("[/link] note")])
    cli_query._print_answer(answer, show_context=True, already_printed=False)
    cli_query._print_retrieval(answer, show_context=True, show_cypher=False)
    printed = sink.getvalue()
    assert printed.count("Title: [/bold] and [red]x[/]") == 2
    assert "[/link] note" in printed


def test_an_error_holding_markup_is_one_plain_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from graphrag_neo4j.cli import app as cli_app

    def failing() -> None:
        raise InputError("data/[/bold].txt is empty; add text to it.")

    monkeypatch.setattr(cli_app, "app", failing)
    monkeypatch.setattr(cli_app, "_register_subcommands", lambda invoked=None: None)
    monkeypatch.setattr(cli_app, "console", Console(stderr=True, width=200))
    with pytest.raises(SystemExit) as exit_info:
        cli_app.main()
    assert exit_info.value.code == 1
    assert "Error: data/[/bold].txt is empty; add text to it." in capsys.readouterr().err


def test_a_settings_file_that_is_not_toml_is_refused_as_a_setting_mistake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "graphrag.toml"
    config.write_text('[llm]\nmodel = "unclosed\n', encoding="utf-8")
    monkeypatch.setenv("GRAPHRAG_CONFIG", str(config))
    _register_subcommands()
    result = CliRunner().invoke(app, ["documents"])
    assert isinstance(result.exception, ConfigError)  # main() prints it as one red sentence
    assert str(result.exception).startswith(f"{config} is not valid TOML")


def test_index_shard_says_it_is_deprecated_and_points_to_ray(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_module, "GraphRAG", _no_engine)
    _register_subcommands()
    result = CliRunner().invoke(app, ["index", "--shard", "1/2"])
    assert isinstance(result.exception, InputError)  # nothing to index: stopped before Neo4j
    said = " ".join(result.output.split())
    assert "`--shard` is deprecated and will be removed" in said
    assert "run `index --ray` on a Ray cluster" in said


@pytest.mark.parametrize("command", ["retrieval", "answers"])
@pytest.mark.parametrize(("listed", "refusal"), [
    ("naive,pagerank", "Unknown method 'pagerank' in --method"),
    (" , ", "--method names no method"),
])
def test_eval_refuses_a_method_list_it_cannot_run_before_anything_loads(
    command: str, listed: str, refusal: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    questions = tmp_path / "questions.json"
    questions.write_text('[{"question": "Who?", "answer": "Bob",'
                         ' "supporting_passage_ids": ["doc-1"]}]')
    monkeypatch.setattr(engine_module, "GraphRAG", _no_engine)
    _register_subcommands()
    result = CliRunner().invoke(
        app, ["eval", command, "--questions", str(questions), "--method", listed])
    assert result.exit_code != 0
    assert isinstance(result.exception, InputError)
    assert refusal in str(result.exception)
    assert "local" in str(result.exception)  # the names it takes
