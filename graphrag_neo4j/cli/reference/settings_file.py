"""Writes a commented settings file and a tunable copy of the prompts (`graphrag-neo4j init`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.runtime.resources import all_prompt_names, prompts_dir
from graphrag_neo4j.settings import CONFIG_FILE_NAME, PROMPTS_FOLDER_NAME, Settings

HEADER = """\
# graphrag-neo4j settings. Every line shows the default; uncomment a line to change it.
# Environment variables override this file: GRAPHRAG_<SECTION>__<KEY>, e.g.
# GRAPHRAG_NEO4J__PASSWORD or GRAPHRAG_LLM__PROVIDER. Keep secrets in the environment.
# Relative paths are relative to this file. Prompts are read from ./prompts when it exists.
"""


def _toml_value(value: Any) -> str:
    if isinstance(value, SecretStr):
        return '"<secret: set it in the environment>"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, Path):
        return json.dumps(str(value))
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        items = (f"{json.dumps(str(k))} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + ", ".join(items) + " }"
    return json.dumps(str(value))


def _field_lines(name: str, info: FieldInfo, value: Any) -> list[str]:
    lines = [f"# {info.description}"] if info.description else []
    if value is None:
        lines.append(f"# {name} =   (not set)")
    else:
        lines.append(f"# {name} = {_toml_value(value)}")
    return lines


def _section_lines(title: str, model: BaseModel) -> list[str]:
    lines = ["", f"[{title}]"]
    nested = []
    for name, info in type(model).model_fields.items():
        value = getattr(model, name)
        key = info.alias or name  # [search.global] is `global_` in Python
        if isinstance(value, BaseModel):
            nested.append((f"{title}.{key}", value))  # a TOML sub-table comes after the keys
        else:
            lines.extend(_field_lines(key, info, value))
    for sub_title, sub_model in nested:
        lines.extend(_section_lines(sub_title, sub_model))
    return lines


def render_settings_file(defaults: Settings) -> str:
    """The settings file text: every section and key with its description and default."""
    lines = HEADER.splitlines()
    sections = []
    for name, info in Settings.model_fields.items():
        value = getattr(defaults, name)
        if isinstance(value, BaseModel):
            sections.append((name, value))
        elif name != "prompts_dir":
            lines.extend(_field_lines(name, info, value))
    for name, value in sections:
        lines.extend(_section_lines(name, value))
    return "\n".join(lines) + "\n"


def write_project(directory: Path, *, force: bool = False) -> tuple[Path, Path]:
    """Create DIR/graphrag.toml and DIR/prompts/; refuse to overwrite unless forced."""
    config_path = directory / CONFIG_FILE_NAME
    prompt_copy = directory / PROMPTS_FOLDER_NAME
    if config_path.exists() and not force:
        raise InputError(f"{config_path} already exists; pass --force to overwrite it.")
    directory.mkdir(parents=True, exist_ok=True)
    defaults = Settings.model_construct()
    config_path.write_text(render_settings_file(defaults), encoding="utf-8")
    prompt_copy.mkdir(exist_ok=True)
    for name in all_prompt_names():
        target = prompt_copy / f"{name}.txt"
        if force or not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(prompts_dir() / f"{name}.txt", target)
    return config_path, prompt_copy
