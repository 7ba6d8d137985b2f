"""Settings: defaults, env prefix and nesting, file layer, secrets, nothing read at import."""

from __future__ import annotations

import ast
import importlib.metadata
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest
from pydantic import BaseModel
from pydantic_core import PydanticUndefinedType

import graphrag_neo4j
from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.settings import (
    RENAMED_SEARCH_SETTINGS,
    RENAMED_SETTINGS_REMOVED_IN,
    Settings,
    load_settings,
    renamed_setting_line,
    search_setting_names,
)


def test_defaults_cover_every_section() -> None:
    settings = Settings()
    assert settings.neo4j.uri == "bolt://127.0.0.1:7687"
    assert settings.chunking.size == 1200 and settings.chunking.overlap == 100
    assert settings.communities.max_cluster_size == 10
    assert settings.search.global_.community_level == 2
    for section in ("neo4j", "llm", "embedding", "chunking", "extraction", "communities", "search"):
        assert section in Settings.model_fields


def test_every_field_has_a_description() -> None:
    for name, info in Settings.model_fields.items():
        section = getattr(Settings(), name)
        fields = type(section).model_fields if hasattr(type(section), "model_fields") else {}
        assert info.description or fields, name
        for field_name, field in fields.items():
            assert field.description, f"{name}.{field_name} has no description"


def test_env_prefix_and_nested_delimiter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHRAG_NEO4J__URI", "bolt://127.0.0.1:17687")
    monkeypatch.setenv("GRAPHRAG_CHUNKING__SIZE", "300")
    settings = load_settings()
    assert settings.neo4j.uri == "bolt://127.0.0.1:17687"
    assert settings.neo4j.bolt_port == 17687
    assert settings.chunking.size == 300


def test_secret_is_never_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHRAG_NEO4J__PASSWORD", "hunter2-secret")
    settings = load_settings()
    assert settings.neo4j.secret() == "hunter2-secret"
    assert "hunter2-secret" not in repr(settings)
    assert "hunter2-secret" not in settings.model_dump_json()


def test_file_layer_is_beaten_by_env_and_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "graphrag.toml"
    config.write_text('[chunking]\nsize = 500\noverlap = 20\n[llm]\nconcurrency = 7\n')
    monkeypatch.setenv("GRAPHRAG_CHUNKING__OVERLAP", "30")
    settings = load_settings(config, llm={"concurrency": 1})
    assert settings.chunking.size == 500  # from the file
    assert settings.chunking.overlap == 30  # env beats file
    assert settings.llm.concurrency == 1  # argument beats both


def test_missing_settings_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(tmp_path / "nope.toml")


def test_unknown_key_is_rejected(tmp_path: Path) -> None:
    config = tmp_path / "graphrag.toml"
    config.write_text("[chunking]\nsizee = 5\n")
    with pytest.raises(ConfigError, match=r"^chunking\.sizee is not a setting; fix it in "):
        load_settings(config)


def test_prompts_folder_next_to_the_file_is_used(tmp_path: Path) -> None:
    (tmp_path / "prompts").mkdir()
    config = tmp_path / "graphrag.toml"
    config.write_text("")
    assert load_settings(config).prompts_dir == tmp_path / "prompts"


def test_nothing_is_read_at_import() -> None:
    # A fresh interpreter imports every module of the package: none may build settings.
    code = ("import graphrag_neo4j.settings as s\n"
            "from graphrag_neo4j.runtime.errors import ConfigError\n"
            "try:\n    s.load_settings()\nexcept ConfigError as exc:\n    print(exc)\n")
    env = {**os.environ, "GRAPHRAG_CHUNKING__SIZE": "not-a-number"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True)
    assert "chunking.size" in done.stdout


def test_the_renamed_names_are_gone_by_their_removal_release() -> None:
    # Reaching the release means deleting the old names (settings/renamed.py), not moving it.
    version = _release(importlib.metadata.version("graphrag-neo4j"))
    assert version < _release(RENAMED_SETTINGS_REMOVED_IN) or not RENAMED_SEARCH_SETTINGS


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".")[:3])


def test_each_method_has_its_search_section(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "graphrag.toml"
    config.write_text('[search]\nhistory_tokens = 200\n[search.hops]\ndegree = 2\n'
                      '[search.global]\nreduce_tokens = 900\n[search.hybrid]\nfusion = "rrf"\n')
    monkeypatch.setenv("GRAPHRAG_SEARCH__DRIFT__DEPTH", "4")
    monkeypatch.setenv("GRAPHRAG_SEARCH__GLOBAL__COMMUNITY_LEVEL", "1")
    search = load_settings(config).search
    assert search.history_tokens == 200 and search.hops.degree == 2
    assert search.global_.reduce_tokens == 900 and search.global_.community_level == 1
    assert search.hybrid.fusion == "rrf" and search.hybrid.enabled is True
    assert search.drift.depth == 4


def test_an_unknown_key_of_a_method_section_is_rejected(tmp_path: Path) -> None:
    config = tmp_path / "graphrag.toml"
    config.write_text("[search.hops]\ndegre = 2\n")
    with pytest.raises(ConfigError, match=r"^search\.hops\.degre is not a setting"):
        load_settings(config)


def test_an_old_flat_name_in_the_file_still_works_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = tmp_path / "graphrag.toml"
    config.write_text("[search]\nhops_degree = 2\nhybrid = false\n[search.hops]\nrerank = false\n")
    with pytest.warns(DeprecationWarning) as warned:
        search = load_settings(config).search
    assert search.hops.degree == 2 and search.hops.rerank is False
    assert search.hybrid.enabled is False
    lines = [renamed_setting_line("hops_degree", "hops.degree"),
             renamed_setting_line("hybrid", "hybrid.enabled")]
    assert [str(w.message) for w in warned] == lines
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == lines
    assert lines[0] == ("search.hops_degree is deprecated: use search.hops.degree (the old name"
                        " goes in release 0.2.0).")


def test_an_old_flat_name_in_the_environment_still_works_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GRAPHRAG_SEARCH__HOPS_DEGREE", "2")
    monkeypatch.setenv("GRAPHRAG_SEARCH__MAP_BATCH_TOKENS", "3000")
    with pytest.warns(DeprecationWarning) as warned:
        search = load_settings().search
    assert search.hops.degree == 2 and search.global_.map_batch_tokens == 3000
    assert sorted(str(w.message) for w in warned) == [
        renamed_setting_line("hops_degree", "hops.degree"),
        renamed_setting_line("map_batch_tokens", "global.map_batch_tokens"),
    ]


def test_the_new_name_wins_over_the_old_one(tmp_path: Path) -> None:
    config = tmp_path / "graphrag.toml"
    config.write_text("[search]\nnaive_top_k = 9\n[search.naive]\ntop_k = 4\n")
    with pytest.warns(DeprecationWarning, match="naive_top_k"):
        assert load_settings(config).search.naive.top_k == 4


def test_every_old_name_has_one_new_place_of_its_own() -> None:
    names = search_setting_names()
    assert set(RENAMED_SEARCH_SETTINGS.values()) <= set(names)
    assert len(set(RENAMED_SEARCH_SETTINGS.values())) == len(RENAMED_SEARCH_SETTINGS)
    assert not set(RENAMED_SEARCH_SETTINGS) & set(names)


def test_a_settings_file_that_is_not_toml_is_one_sentence_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "graphrag.toml"
    path.write_text('[extraction.schema]\nentity_types = { person = "a human",\n'
                    '  place = "a town" }\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"graphrag\.toml is not valid TOML \(.*line 2.*\);"
                                          r" fix that line \(an inline table"):
        load_settings(path)


def test_a_refused_value_names_the_setting_the_file_and_its_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "graphrag.toml"
    path.write_text('[chunking]\nsize = "big"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_settings(path)
    assert str(refused.value).startswith("Setting chunking.size = 'big' is refused: Input should"
                                         " be a valid integer")
    assert f"fix it in {path} or GRAPHRAG_CHUNKING__SIZE" in str(refused.value)
    monkeypatch.setenv("GRAPHRAG_CHUNKING__OVERLAP", "-")
    with pytest.raises(ConfigError, match=r"^Setting chunking\.\w+ = .* \(and 1 more\); fix it"):
        load_settings(path)


def test_a_refused_secret_is_never_printed(tmp_path: Path) -> None:
    path = tmp_path / "graphrag.toml"
    path.write_text("[llm]\napi_key = 12345678\n", encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_settings(path)
    assert "12345678" not in str(refused.value)
    assert str(refused.value).startswith("Setting llm.api_key = <hidden> is refused")


# Same parameter name and value as a setting, yet another thing: a probe's own timeout.
NOT_A_SETTING = {("database/server/bolt_probe.py", "timeout_s")}


def test_no_setting_default_is_declared_again_elsewhere() -> None:
    defaults = _setting_defaults(Settings)
    package = Path(graphrag_neo4j.__file__).parent
    again = [
        f"{path.relative_to(package)}:{name}={value!r}"
        for path in package.rglob("*.py") if path.parent.name != "settings"
        for name, value in _literal_defaults(path)
        if value in defaults.get(name, [])
        and (str(path.relative_to(package)), name) not in NOT_A_SETTING
    ]
    assert again == []


def _setting_defaults(model: type[BaseModel]) -> dict[str, list[object]]:
    """Field name -> the defaults settings give it (booleans and None left out: too common)."""
    found: dict[str, list[object]] = {}
    for name, info in model.model_fields.items():
        if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel):
            for key, values in _setting_defaults(info.annotation).items():
                found.setdefault(key, []).extend(values)
        elif not isinstance(info.default, bool | PydanticUndefinedType | None):
            found.setdefault(name, []).append(info.default)
    return found


def _literal_defaults(path: Path) -> Iterator[tuple[str, object]]:
    """(name, value) of every literal default of a parameter or a class-level field."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        pairs: list[tuple[str, ast.expr]] = []
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            pairs.append((node.target.id, node.value))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = [*node.args.posonlyargs, *node.args.args]
            defaulted = args[len(args) - len(node.args.defaults):]
            pairs += [(a.arg, d) for a, d in zip(defaulted, node.args.defaults, strict=True)]
            pairs += [(a.arg, d) for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults,
                                                 strict=True) if d is not None]
        for name, value in pairs:
            with suppress(ValueError, TypeError, SyntaxError):
                literal = ast.literal_eval(value)
                if not isinstance(literal, bool) and literal is not None:
                    yield name, literal
