"""Renders the settings reference (docs/settings.md) from the `Settings` model itself."""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from graphrag_neo4j.settings import Settings

HEADER = """\
# Settings reference

Generated from `graphrag_neo4j/settings/` by `graphrag-neo4j settings-reference`; do not edit
by hand (`tests/unit/project/test_docs.py` fails when this page and the code differ).

Settings come from, strongest first: Python arguments (`GraphRAG(settings)`,
`load_settings(**overrides)`), environment variables (`GRAPHRAG_<SECTION>__<KEY>`, nested
sections joined by `__`), and the settings file (`graphrag.toml` in the working folder, or the
file `GRAPHRAG_CONFIG` names; `graphrag-neo4j init` writes one with every default commented).
An unknown key is refused. Defaults under the home folder are written `~`.
"""

Section = tuple[str, type[BaseModel]]


def setting_name(field_name: str, info: FieldInfo) -> str:
    """The name a setting has in the file and the environment (its alias, when it has one)."""
    return info.alias or field_name


def sections(model: type[BaseModel] = Settings, prefix: str = "") -> Iterator[Section]:
    """Every section as (dotted name, model), parents before their sub-sections."""
    yield prefix, model
    for field_name, info in model.model_fields.items():
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            name = setting_name(field_name, info)
            yield from sections(annotation, f"{prefix}.{name}" if prefix else name)


def leaf_fields(model: type[BaseModel]) -> Iterator[tuple[str, FieldInfo]]:
    """The fields of a section that hold values, not sub-sections."""
    for field_name, info in model.model_fields.items():
        annotation = info.annotation
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            yield setting_name(field_name, info), info


def setting_names(settings: type[BaseModel] = Settings) -> list[str]:
    """Every setting's dotted name (`search.top_chunks`, `cache_dir`)."""
    return [
        f"{section}.{name}" if section else name
        for section, model in sections(settings)
        for name, _ in leaf_fields(model)
    ]


def type_text(annotation: Any) -> str:
    """A type as a reader writes it: `int`, `str | None`, `"tokens" | "chars"`."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return " | ".join(json.dumps(value) for value in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return " | ".join(type_text(arg) for arg in typing.get_args(annotation))
    if origin is not None:
        args = ", ".join(type_text(arg) for arg in typing.get_args(annotation))
        return f"{origin.__name__}[{args}]"
    if annotation is type(None):
        return "None"
    return getattr(annotation, "__name__", str(annotation))


def default_text(info: FieldInfo) -> str:
    """A field's default as TOML-like text, the user's home folder written `~`."""
    value = info.get_default(call_default_factory=True)
    if value is PydanticUndefined or value is None:
        return "(not set)"
    if isinstance(value, SecretStr):
        return "(secret)"
    if isinstance(value, Path):
        home = str(Path.home())
        text = str(value)
        return "~" + text[len(home):] if text.startswith(home + "/") else text
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, str | list | dict) else repr(value)


def env_var(section: str, name: str) -> str:
    """The environment variable of a setting: GRAPHRAG_SEARCH__TOP_CHUNKS."""
    parts = [*section.split("."), name] if section else [name]
    return "GRAPHRAG_" + "__".join(part.upper() for part in parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _section_lines(section: str, model: type[BaseModel]) -> list[str]:
    title = f"`[{section}]`" if section else "Top level"
    doc = (model.__doc__ or "").strip().splitlines()[0] if model.__doc__ else ""
    lines = ["", f"## {title}", ""]
    if section:
        lines += [doc, ""]
    lines += ["| setting | type | default | description |", "|---|---|---|---|"]
    for name, info in leaf_fields(model):
        full = f"{section}.{name}" if section else name
        description = ("Deprecated. " if info.deprecated else "") + (info.description or "")
        lines.append(
            f"| `{full}` | `{_cell(type_text(info.annotation))}` | `{_cell(default_text(info))}` "
            f"| {_cell(description)} `{env_var(section, name)}` |"
        )
    return lines


def render_settings_reference(settings: type[BaseModel] = Settings) -> str:
    """The whole reference page: every section and setting with type, default, description."""
    lines = HEADER.rstrip("\n").splitlines()
    for section, model in sections(settings):
        if any(True for _ in leaf_fields(model)):
            lines += _section_lines(section, model)
    return "\n".join(lines) + "\n"
