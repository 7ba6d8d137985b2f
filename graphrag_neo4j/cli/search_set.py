"""`--set KEY=VALUE`: per-run [search] settings on the command line, checked before any work."""

from __future__ import annotations

import tomllib
from typing import Annotated, Any

import typer

from graphrag_neo4j.errors import InputError
from graphrag_neo4j.query.base import validated_search
from graphrag_neo4j.settings import SearchSettings

SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help="A [search] setting for this run, repeatable: --set hops.degree=2"
        " --set hybrid.enabled=false (keys as in the settings file's [search] section).",
    ),
]


def search_settings_set(assignments: list[str] | None) -> dict[str, Any]:
    """The `--set` assignments as {dotted key: value}, validated like the settings file."""
    overrides = dict(_assignment(text) for text in assignments or ())
    validated_search(SearchSettings(), overrides)
    return overrides


def _assignment(text: str) -> tuple[str, Any]:
    key, equals, raw = text.partition("=")
    if not equals or not key.strip():
        raise InputError(f"--set takes KEY=VALUE, e.g. --set hops.degree=2, not {text!r}.")
    return key.strip(), _scalar(key.strip(), raw.strip())


def _scalar(key: str, raw: str) -> Any:
    """A TOML scalar (2, 0.5, true, "text"); a bare word such as rrf is taken as text."""
    try:
        value = tomllib.loads(f"value = {raw}")["value"]
    except tomllib.TOMLDecodeError:
        return raw
    if isinstance(value, dict | list):
        raise InputError(f"--set {key} takes one value (a number, true/false or text),"
                         f" not {raw!r}.")
    return value
