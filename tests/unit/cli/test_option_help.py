"""Every option of the command line is spelled and explained as written."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.cli.reference.command_reference import commands, option_names


def _all_commands() -> list[tuple[str, Any]]:
    _register_subcommands()
    return list(commands(app))


def test_no_flag_is_the_negation_of_a_negation() -> None:
    doubled = [(path, name) for path, command in _all_commands()
               for name in option_names(command) if name.startswith("--no-no-")]
    assert doubled == []


def test_help_texts_survive_the_terminal_markup() -> None:
    # `--help` renders help as rich markup: "[[role, text]]" printed as "[]" (a backslash
    # before a bracket keeps it).
    mangled = [(path, param.name) for path, command in _all_commands()
               for param in command.params
               if getattr(param, "help", None)
               and Text.from_markup(param.help).plain != param.help.replace("\\[", "[")]
    assert mangled == []
