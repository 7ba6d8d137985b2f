"""Renders the command reference (docs/cli.md) from the Typer app itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer

# Typer builds its commands with a click of its own (not the `click` package), so they are
# read by duck typing: `params`, `param_type_name`, `opts`, `commands`.
Command = Any
Parameter = Any

PROGRAM = "graphrag-neo4j"
HEADER = """\
# Command reference

Generated from the `graphrag-neo4j` command line by `graphrag-neo4j cli-reference`; do not edit
by hand (`tests/unit/project/test_docs.py` fails when this page and the code differ). Every command
also prints this with `--help`. Settings the commands read: [settings.md](settings.md).
"""


def commands(app: typer.Typer) -> Iterator[tuple[str, Command]]:
    """Every runnable command as (its words after the program name, the click command)."""
    yield from _walk(typer.main.get_command(app), "")


def _walk(command: Command, path: str) -> Iterator[tuple[str, Command]]:
    subcommands: dict[str, Command] = getattr(command, "commands", {})
    if not subcommands:
        yield path, command
    for name, sub in subcommands.items():
        yield from _walk(sub, f"{path} {name}".strip())


def option_names(command: Command) -> list[str]:
    """The option spellings of a command: `--method`, `-n`, `--no-rerank`, `--hybrid`."""
    return [
        name
        for param in _options(command)
        for name in (*param.opts, *param.secondary_opts)
    ]


def _options(command: Command) -> list[Parameter]:
    return [p for p in command.params if p.param_type_name == "option" and not p.hidden]


def _first_line(text: str | None) -> str:
    return (text or "").strip().split("\n\n")[0].replace("\n", " ")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _usage(path: str, command: Command) -> str:
    arguments = [
        (param.name or "").upper() if param.required else f"[{(param.name or '').upper()}]"
        for param in command.params
        if param.param_type_name == "argument"
    ]
    return " ".join([PROGRAM, path, *arguments, "[OPTIONS]"])


def _option_row(param: Parameter) -> str:
    spellings = " / ".join(f"`{name}`" for name in (*param.opts, *param.secondary_opts))
    default = param.default
    hidden = default is None or default == () or (param.is_flag and default is False)
    shown = "" if hidden else f" (default {default})"
    return f"| {spellings} | {_cell(_first_line(param.help) + shown)} |"


def _command_lines(path: str, command: Command) -> list[str]:
    lines = ["", f"## `{PROGRAM} {path}`", "", _first_line(command.help), "",
             f"`{_usage(path, command)}`"]
    options = _options(command)
    if options:
        lines += ["", "| option | does |", "|---|---|", *map(_option_row, options)]
    return lines


def render_command_reference(app: typer.Typer) -> str:
    """The whole reference page: every command with its usage and options."""
    lines = HEADER.rstrip("\n").splitlines()
    for path, command in commands(app):
        lines += _command_lines(path, command)
    return "\n".join(lines) + "\n"
