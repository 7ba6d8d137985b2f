"""The whole configuration, loaded explicitly from Python arguments, environment and file."""

from __future__ import annotations

import os
import reprlib
import tomllib
from contextvars import ContextVar
from pathlib import Path
from typing import Any, get_args

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.settings.base import user_cache_dir
from graphrag_neo4j.settings.evaluation import EvalSettings
from graphrag_neo4j.settings.extraction import ExtractionSettings
from graphrag_neo4j.settings.indexing import (
    ChunkingSettings,
    CommunitySettings,
    ExecutionSettings,
)
from graphrag_neo4j.settings.models import EmbeddingSettings, LLMSettings
from graphrag_neo4j.settings.search import SearchSettings
from graphrag_neo4j.settings.server import Neo4jSettings, ServerSettings

CONFIG_FILE_NAME = "graphrag.toml"
CONFIG_ENV_VAR = "GRAPHRAG_CONFIG"
PROMPTS_FOLDER_NAME = "prompts"

# Set only for the duration of one load_settings() call, so the file is a per-call choice.
_active_config_file: ContextVar[Path | None] = ContextVar("graphrag_config_file", default=None)


class Settings(BaseSettings):
    """The whole configuration; build it with load_settings() or directly."""

    model_config = SettingsConfigDict(
        env_prefix="GRAPHRAG_", env_nested_delimiter="__", extra="forbid"
    )

    neo4j: Neo4jSettings = Field(default_factory=Neo4jSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    chunking: ChunkingSettings = Field(default_factory=ChunkingSettings)
    extraction: ExtractionSettings = Field(default_factory=ExtractionSettings)
    communities: CommunitySettings = Field(default_factory=CommunitySettings)
    search: SearchSettings = Field(default_factory=SearchSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    eval: EvalSettings = Field(default_factory=EvalSettings)
    execution: ExecutionSettings = Field(default_factory=ExecutionSettings)
    cache_dir: Path = Field(
        default_factory=user_cache_dir,
        description="LLM response cache, embedding cache and downloaded models.",
    )
    prompts_dir: Path | None = Field(
        None, description="Folder of prompt overrides (written by `graphrag-neo4j init`)."
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,  # noqa: ARG003 (no .env support)
        file_secret_settings: PydanticBaseSettingsSource,  # noqa: ARG003
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Python arguments beat environment variables, which beat the settings file."""
        config_file = _active_config_file.get()
        if config_file is None:
            return (init_settings, env_settings)
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls, config_file))


def find_config_file(start: Path | None = None) -> Path | None:
    """The settings file: $GRAPHRAG_CONFIG, else graphrag.toml in the working folder."""
    explicit = os.environ.get(CONFIG_ENV_VAR)
    if explicit:
        return Path(explicit)
    candidate = (start or Path.cwd()) / CONFIG_FILE_NAME
    return candidate if candidate.is_file() else None


def load_settings(config_file: Path | None = None, **overrides: object) -> Settings:
    """Build settings from overrides, env vars and the settings file, in that order."""
    path = config_file or find_config_file()
    if path is not None and not path.is_file():
        raise ConfigError(f"Settings file {path} does not exist; run `graphrag-neo4j init`.")
    token = _active_config_file.set(path)
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise ConfigError(_settings_problem(exc, path)) from exc
    finally:
        _active_config_file.reset(token)
    return _resolve_relative_paths(settings, path.parent if path else Path.cwd())


def _settings_problem(exc: tomllib.TOMLDecodeError | ValidationError, path: Path | None) -> str:
    """One sentence naming what is wrong with the settings and where to fix it."""
    if isinstance(exc, tomllib.TOMLDecodeError):
        return (f"{path} is not valid TOML ({exc}); fix that line (an inline table {{...}}"
                " must stay on one line) or run `graphrag-neo4j init` for a commented file.")
    first = exc.errors()[0]
    key = ".".join(str(part) for part in first["loc"])
    env = f"GRAPHRAG_{key.upper().replace('.', '__')}"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    places = f"{path} or {env}" if path else env
    if first["type"] == "extra_forbidden":
        problem = f"{key} is not a setting{more}"
    else:
        # a refused key is still a key
        value = "<hidden>" if _is_secret(first["loc"]) else reprlib.repr(first.get("input"))
        problem = f"Setting {key} = {value} is refused: {first['msg']}{more}"
    return f"{problem}; fix it in {places} (docs/settings.md lists every setting)."


def _is_secret(loc: tuple[int | str, ...]) -> bool:
    """Whether the setting at `loc` is typed SecretStr (a password, an API key)."""
    annotation: Any = Settings
    for part in loc:
        fields = getattr(annotation, "model_fields", None)
        if not isinstance(fields, dict) or part not in fields:
            break  # past the setting: a union member's or an item's place
        annotation = fields[part].annotation
    return SecretStr in (annotation, *get_args(annotation))


def _resolve_relative_paths(settings: Settings, base: Path) -> Settings:
    """Relative paths in a settings file are relative to that file's folder."""
    prompts_dir = settings.prompts_dir
    if prompts_dir is None and (base / PROMPTS_FOLDER_NAME).is_dir():
        prompts_dir = base / PROMPTS_FOLDER_NAME
    if prompts_dir is not None and not prompts_dir.is_absolute():
        prompts_dir = base / prompts_dir
    return settings.model_copy(update={"prompts_dir": prompts_dir})
