"""The chat command without a TTY: commands answered from stdin, Ctrl-D (EOF) leaves cleanly."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.cli.chat import TerminalLines
from graphrag_neo4j.query.answers.conversation import Conversation
from graphrag_neo4j.query.base import Answer


def test_chat_reads_commands_from_stdin_and_ends_at_eof() -> None:
    _register_subcommands()
    result = CliRunner().invoke(
        app, ["chat", "--method", "naive"], input="/method drfit\n/method global\n/help\n",
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    plain = re.sub(r"\x1b\[[0-9;]*m", "", result.output)
    assert "Chatting with naive search." in plain
    unknown = ("Error: Unknown method 'drfit': use one of local, global, hops, ppr, naive,"
               " drift, cypher.")
    assert unknown in plain
    assert "Method: global" in plain and "/evidence" in plain
    assert plain.rstrip().endswith("Bye (0 questions asked).")


def test_query_and_chat_list_the_registered_methods() -> None:
    _register_subcommands()
    for command in ("query", "chat"):
        result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
        plain = re.sub(r"\x1b\[[0-9;]*m", "", result.output)
        assert "local, global, hops, ppr, naive, drift" in plain
    result = CliRunner().invoke(app, ["query", "--help"], env={"COLUMNS": "200"})
    assert "--history" in re.sub(r"\x1b\[[0-9;]*m", "", result.output)


def test_terminal_lines_prompt_with_the_method_and_end_at_ctrl_d(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    typed = iter(["Who is Marley?"])
    prompts: list[str] = []

    def fake_input(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    lines = TerminalLines(Conversation(lambda *_: Answer("", "drift"), method="drift"))
    assert lines.readline() == "Who is Marley?\n"
    assert lines.readline() == ""
    assert prompts == ["\ndrift> ", "\ndrift> "]
