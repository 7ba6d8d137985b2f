"""`graphrag-neo4j init`: a commented settings file that loads, and a tunable prompts copy."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from graphrag_neo4j.cli.reference.settings_file import write_project
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.runtime.resources import load_prompt, prompts_dir
from graphrag_neo4j.settings import Settings, load_settings


def test_init_writes_a_loadable_commented_file(tmp_path: Path) -> None:
    config, prompt_copy = write_project(tmp_path)
    text = config.read_text()
    assert "[neo4j]" in text and "[search]" in text
    assert "# size = 1200" in text
    expected: dict[str, dict[str, dict[str, object]]] = {section: {} for section in _sections()}
    expected["extraction"]["fast"] = {}  # a sub-table of its own
    expected["extraction"]["schema"] = {}
    for method in ("local", "global", "hops", "ppr", "drift", "cypher", "naive", "hybrid"):
        expected["search"][method] = {}  # [search.<method>]
    assert tomllib.loads(text) == expected
    assert load_settings(config).chunking.size == 1200
    shipped = sorted(p.name for p in prompts_dir().glob("*.txt"))
    assert shipped, "the package ships no prompts"
    assert sorted(p.name for p in prompt_copy.glob("*.txt")) == shipped


def test_uncommented_line_takes_effect(tmp_path: Path) -> None:
    config, _ = write_project(tmp_path)
    config.write_text(config.read_text().replace("# size = 1200", "size = 800"))
    assert load_settings(config).chunking.size == 800


def test_tuned_prompt_overrides_the_shipped_one(tmp_path: Path) -> None:
    config, prompt_copy = write_project(tmp_path)
    name = sorted(prompt_copy.glob("*.txt"))[0]
    name.write_text("my tuned prompt {text}")
    settings = load_settings(config)
    assert load_prompt(name.stem, settings.prompts_dir) == "my tuned prompt {text}"
    assert load_prompt(name.stem, None) != "my tuned prompt {text}"


def test_a_nested_section_line_takes_effect(tmp_path: Path) -> None:
    config, _ = write_project(tmp_path)
    text = config.read_text()
    assert "[extraction.fast]" in text and '# "PERSON" = "person"' not in text
    config.write_text(text.replace("# min_edge_weight = 1.0", "min_edge_weight = 2.5"))
    assert load_settings(config).extraction.fast.min_edge_weight == 2.5


def test_init_refuses_to_overwrite(tmp_path: Path) -> None:
    write_project(tmp_path)
    with pytest.raises(InputError, match="--force"):
        write_project(tmp_path)
    write_project(tmp_path, force=True)


def test_a_search_method_section_line_takes_effect(tmp_path: Path) -> None:
    config, _ = write_project(tmp_path)
    text = config.read_text()
    assert "[search.global]" in text and "global_" not in text
    hops = text.index("[search.hops]")
    config.write_text(text[:hops] + text[hops:].replace("# degree = 1", "degree = 2", 1))
    search = load_settings(config).search
    assert search.hops.degree == 2 and search.global_.community_level == 2


def _sections() -> list[str]:
    return [name for name, info in Settings.model_fields.items() if info.annotation is not None
            and hasattr(info.annotation, "model_fields")]
