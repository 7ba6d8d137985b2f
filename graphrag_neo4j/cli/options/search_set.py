"""`--set KEY=VALUE`: per-run [search] settings on the command line, checked before any work."""

from __future__ import annotations

import logging
import tomllib
from typing import Annotated, Any

import typer

from graphrag_neo4j.query.base import validated_search, with_search_settings
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import (
    RENAMED_SEARCH_SETTINGS,
    SearchSettings,
    Settings,
    load_settings,
)

logger = logging.getLogger(__name__)

SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        # A backslash keeps Rich from reading [search] as markup in --help.
        help="A search setting for this run, repeatable: --set hops.degree=2"
        " --set hybrid.enabled=false (keys and values as under \\[search] in the settings"
        " file).",
    ),
]


def search_settings_set(assignments: list[str] | None) -> dict[str, Any]:
    """The `--set` assignments as {dotted key: value}, validated like the settings file; an
    old flat name is warned about once here and passed on under its new name."""
    overrides = dict(_assignment(text) for text in assignments or ())
    _, deprecations = validated_search(SearchSettings(), overrides)
    for line in deprecations:
        logger.warning(line)
    return {RENAMED_SEARCH_SETTINGS.get(key, key): value for key, value in overrides.items()}


def settings_with(overrides: dict[str, Any]) -> Settings:
    """The run's settings with the `--set` values in them. Whoever runs the CLI is the
    operator: their `--set` may raise a budget, as the settings file may, while a query's own
    options (HTTP, MCP) may only lower what these settings allow."""
    return with_search_settings(load_settings(), overrides)


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
