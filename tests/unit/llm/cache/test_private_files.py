"""Caches the engine writes hold the user's documents: their files and folders are user-only."""

from __future__ import annotations

import os
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from graphrag_neo4j.llm.cache.disk_cache import DiskCache
from graphrag_neo4j.runtime.resources import private_dir, write_private


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_cache_file_and_folder_are_user_only_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        cache = DiskCache(tmp_path / "cache" / "llm.sqlite", "replies")
        cache.put("key", {"reply": "text from a private document"})
        cache.close()
    finally:
        os.umask(old)
    assert _mode(tmp_path / "cache") == 0o700
    files = sorted((tmp_path / "cache").iterdir())
    assert files and all(_mode(path) == 0o600 for path in files)


def test_an_existing_open_folder_is_narrowed(tmp_path: Path) -> None:
    folder = tmp_path / "open"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    private_dir(folder)
    assert _mode(folder) == 0o700


def test_write_private_replaces_a_file_atomically_and_user_only(tmp_path: Path) -> None:
    target = tmp_path / "home" / "secret"
    write_private(target, "one")
    write_private(target, "two")
    assert target.read_text(encoding="utf-8") == "two"
    assert _mode(target) == 0o600
    assert sorted(p.name for p in target.parent.iterdir()) == ["secret"]


def test_write_private_from_many_threads_at_once_leaves_one_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "marker.json"
    texts = [f"writer {n} " * 2000 for n in range(8)]

    def write_often(text: str) -> None:
        for _ in range(20):
            write_private(target, text)

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(write_often, texts))
    assert target.read_text(encoding="utf-8") in texts
    assert sorted(p.name for p in tmp_path.iterdir()) == ["marker.json"]
