"""A query's own [search] options: every setting's name, how a query may change it, overrides
given nested, dotted or by an old name, laid over the settings."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from graphrag_neo4j.settings.base import PER_QUERY, mark
from graphrag_neo4j.settings.renamed import RENAMED_SEARCH_SETTINGS, renamed_setting_line
from graphrag_neo4j.settings.search import SearchSettings

# Python spells the [search.global] section `global_`; overrides may too.
_GLOBAL_ATTRIBUTE = re.compile(r"^global_(?=\.|$)")


def _search_sections() -> dict[str, type[BaseModel]]:
    """The method sections of [search] by their TOML name."""
    return {info.alias or name: info.annotation
            for name, info in SearchSettings.model_fields.items()
            if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel)}


def search_setting_names() -> list[str]:
    """Every [search] setting by its name relative to [search], e.g. `hops.degree`."""
    sections = _search_sections()
    shared = [name for name, info in SearchSettings.model_fields.items()
              if (info.alias or name) not in sections]
    return shared + [f"{key}.{field}" for key, section in sections.items()
                     for field in section.model_fields]


def per_query_rule(name: str) -> str:
    """How a query may change a [search] setting (`hops.degree`): "tunable", "settings_only",
    or "budget" (unmarked: lowered only)."""
    section, _, key = name.rpartition(".")
    owner = _search_sections()[section] if section else SearchSettings
    return mark(owner.model_fields[key], PER_QUERY) or "budget"


def search_overrides(
    overrides: Mapping[str, Any],
) -> tuple[dict[str, Any], list[str], list[str]]:
    """Overrides given nested (`{"hops": {"degree": 2}}`), dotted (`"hops.degree"`) or by an
    old flat name, as one nested [search] table; with a deprecation line per old name and the
    names that are no setting at all."""
    known = set(search_setting_names())
    table: dict[str, Any] = {}
    lines: list[str] = []
    unknown: list[str] = []
    for name, value in _dotted(overrides):
        if name in RENAMED_SEARCH_SETTINGS:
            lines.append(renamed_setting_line(name, RENAMED_SEARCH_SETTINGS[name]))
            name = RENAMED_SEARCH_SETTINGS[name]
        if name not in known:
            unknown.append(name)
            continue
        section, _, key = name.rpartition(".")
        (table.setdefault(section, {}) if section else table)[key] = value
    return table, lines, unknown


def _dotted(overrides: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """(dotted name, value) pairs: a section given as a table is opened into its keys."""
    sections = _search_sections()
    pairs: list[tuple[str, Any]] = []
    for name, value in overrides.items():
        name = _GLOBAL_ATTRIBUTE.sub("global", name)
        if name in sections and isinstance(value, Mapping):
            pairs.extend((f"{name}.{key}", item) for key, item in value.items())
        else:
            pairs.append((name, value))
    return pairs


def merged_search(base: SearchSettings, table: Mapping[str, Any]) -> dict[str, Any]:
    """`base` as a [search] table with `table`'s keys laid over it, section by section."""
    merged = base.model_dump(by_alias=True)
    for key, value in table.items():
        merged[key] = {**merged[key], **value} if isinstance(value, Mapping) else value
    return merged
