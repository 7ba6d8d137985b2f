"""The on-disk cache: a file it cannot open is refused in one sentence with the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.errors import ConfigError
from graphrag_neo4j.llm.disk_cache import DiskCache


def test_a_damaged_cache_file_is_refused_with_delete_it_as_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "llm_cache.sqlite"
    path.write_bytes(b"not a database " * 400)
    with pytest.raises(ConfigError, match=r"llm_cache\.sqlite .*the file is damaged: delete it"):
        DiskCache(path, "responses")


def test_a_cache_in_a_folder_that_cannot_be_made_names_the_setting(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(ConfigError, match="point GRAPHRAG_CACHE_DIR at a writable folder"):
        DiskCache(blocker / "cache" / "llm_cache.sqlite", "responses")


def test_values_survive_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = DiskCache(path, "responses")
    cache.put_many({"a": {"text": "Tulsa"}, "b": [1, 2]})
    cache.close()
    again = DiskCache(path, "responses")
    assert again.get_many(["a", "b", "c"]) == {"a": {"text": "Tulsa"}, "b": [1, 2]}
    assert len(again) == 2
