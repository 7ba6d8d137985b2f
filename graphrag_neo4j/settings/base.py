"""What every section shares: unknown keys refused, the marks fields carry for the code, the
user's data and cache folders (XDG) that defaults live under."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

# How a query's own options may change a [search] setting (query.base.make_query reads it).
# Unmarked, a number may be lowered but never raised past the settings (those of `serve` for
# its clients): it is a budget of rows, tokens, calls or seconds. TUNABLE marks a weight, share
# or level held within its own bounds; SETTINGS_ONLY one no query may change at all.
PER_QUERY = "per_query"
TUNABLE: dict[str, Any] = {PER_QUERY: "tunable"}
SETTINGS_ONLY: dict[str, Any] = {PER_QUERY: "settings_only"}

# A token budget of the data one prompt holds, by the prompt it goes in: `fit_to_window` cuts
# each to what a small model's window leaves beside that prompt and its answer, and
# `eval answers` gives every answer-side one the same figure. Marked here, so a new budget is
# never missed by a list kept elsewhere.
CONTEXT_BUDGET = "context_budget"
Room = Literal["answer", "report"]
ANSWER_CONTEXT: dict[str, Any] = {CONTEXT_BUDGET: "answer"}  # a question's answer prompts
REPORT_CONTEXT: dict[str, Any] = {CONTEXT_BUDGET: "report"}  # a community report's prompt


class Section(BaseModel):
    """A settings section: unknown keys are typos, so they are refused."""

    model_config = ConfigDict(extra="forbid")


def mark(info: FieldInfo, key: str) -> str | None:
    """The value a field's mark gives `key` (None: unmarked)."""
    extra = info.json_schema_extra
    value = extra.get(key) if isinstance(extra, dict) else None
    return None if value is None else str(value)


def budget_room(info: FieldInfo) -> str | None:
    """The prompt a field is a context budget of ("answer", "report"), or None."""
    return mark(info, CONTEXT_BUDGET)


def context_budgets(model: type[BaseModel], room: Room) -> list[str]:
    """Every context budget of `room` in `model` and its sections, dotted as the settings file
    names them relative to `model` (`passage_context_tokens`, `global.reduce_tokens`)."""
    return [name for name, info in _leaves(model, "") if budget_room(info) == room]


def _leaves(model: type[BaseModel], prefix: str) -> Iterator[tuple[str, FieldInfo]]:
    """(dotted name, field) of every value of `model`, sections opened, in declaration order."""
    for name, info in model.model_fields.items():
        dotted = f"{prefix}{info.alias or name}"
        if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel):
            yield from _leaves(info.annotation, f"{dotted}.")
        else:
            yield dotted, info


def setting_default(section: type[BaseModel], name: str) -> Any:
    """The default a section declares for a field, for code that needs it outside settings
    (a launcher's own defaults), so the value is written once."""
    info = section.model_fields[name]
    if info.default is PydanticUndefined and info.default_factory is not None:
        return info.default_factory()  # type: ignore[call-arg]
    return info.default


def user_data_dir() -> Path:
    """Where the local server's folder goes by default."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "graphrag-neo4j"


def user_cache_dir() -> Path:
    """Where caches and downloaded models go by default."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "graphrag-neo4j"
