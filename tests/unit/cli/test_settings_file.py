"""`graphrag-neo4j init`: a commented settings file that loads, and a tunable prompts copy."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from graphrag_neo4j.cli.reference.settings_file import write_project
from graphrag_neo4j.runtime import resources
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.runtime.resources import MOVED_PROMPTS, all_prompt_names, load_prompt
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
    shipped = all_prompt_names()
    assert "query/hops/follow_up" in shipped, "the package ships no prompts in sub-folders"
    copied = sorted(p.relative_to(prompt_copy).with_suffix("").as_posix()
                    for p in prompt_copy.rglob("*.txt"))
    assert copied == shipped


def test_uncommented_line_takes_effect(tmp_path: Path) -> None:
    config, _ = write_project(tmp_path)
    config.write_text(config.read_text().replace("# size = 1200", "size = 800"))
    assert load_settings(config).chunking.size == 800


def test_tuned_prompt_overrides_the_shipped_one(tmp_path: Path) -> None:
    config, prompt_copy = write_project(tmp_path)
    (prompt_copy / "query" / "hops" / "follow_up.txt").write_text("my tuned prompt {text}")
    settings = load_settings(config)
    assert load_prompt("query/hops/follow_up", settings.prompts_dir) == "my tuned prompt {text}"
    assert load_prompt("query/hops/follow_up", None) != "my tuned prompt {text}"


def test_an_older_flat_prompts_copy_is_still_honoured_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(resources, "_WARNED_OLD_OVERRIDES", set())
    older = tmp_path / "prompts"  # what `init` of a release before the prompt folders wrote
    older.mkdir()
    (older / "hops_answer.txt").write_text("my old tuned answer {question}")
    with caplog.at_level("WARNING", logger="graphrag_neo4j.runtime.resources"):
        assert load_prompt("query/answers/hops", older) == "my old tuned answer {question}"
        assert load_prompt("query/answers/hops", older) == "my old tuned answer {question}"
    (line,) = caplog.messages  # one line per file, not one per call
    assert "hops_answer.txt" in line and "query/answers/hops.txt" in line
    assert load_prompt("query/answers/naive", older) == load_prompt("query/answers/naive")


def test_a_prompt_at_its_new_place_wins_over_its_old_flat_copy(tmp_path: Path) -> None:
    overrides = tmp_path / "prompts"
    (overrides / "query" / "answers").mkdir(parents=True)
    (overrides / "query" / "answers" / "hops.txt").write_text("new place")
    (overrides / "hops_answer.txt").write_text("old place")
    assert load_prompt("query/answers/hops", overrides) == "new place"


def test_every_old_flat_prompt_name_moved_to_a_shipped_prompt() -> None:
    assert sorted(MOVED_PROMPTS.values()) == all_prompt_names()
    assert all("/" not in old for old in MOVED_PROMPTS)


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
