"""The on-disk cache: a folder it cannot use is refused in one sentence with the fix; a damaged
file is named once, set aside and made again, and the run goes on."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from graphrag_neo4j.llm.cache import sqlite_file
from graphrag_neo4j.llm.cache.disk_cache import DiskCache
from graphrag_neo4j.llm.calls.chat import LLM_CACHE_FILE, LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EMBEDDING_CACHE_FILE, EmbeddingCaller
from graphrag_neo4j.llm.lazy_model import LazyModel
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.settings import EmbeddingSettings, LLMSettings
from tests.unit.llm.cache.sqlite_holder import holding_open

PAGE = 4096


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def _filled(path: Path, entries: int = 400) -> None:
    cache = DiskCache(path, "responses")
    cache.put_many({f"k{n}": {"text": "x" * 200} for n in range(entries)})
    cache.close()


def _damage_pages(path: Path) -> None:
    """Overwrite every page but the first (the header and schema stay readable)."""
    data = bytearray(path.read_bytes())
    for start in range(PAGE, len(data), PAGE):
        data[start : start + PAGE] = b"\xff" * PAGE
    path.write_bytes(bytes(data))


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
    again.close()


def test_a_file_that_is_not_a_database_is_set_aside_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "llm_cache.sqlite"
    path.write_bytes(b"not a database " * 400)
    cache = DiskCache(path, "responses")
    assert cache.get("a") is None
    cache.put("a", "Tulsa")
    assert cache.get("a") == "Tulsa"
    cache.close()
    (warning,) = _warnings(caplog)
    assert str(path) in warning and "damaged" in warning and "set aside as" in warning
    (aside,) = tmp_path.glob("llm_cache.sqlite.damaged-*")
    assert aside.read_bytes() == b"not a database " * 400


def test_pages_found_damaged_during_a_run_cost_misses_and_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "embedding_cache.sqlite"
    _filled(path)
    _damage_pages(path)
    cache = DiskCache(path, "responses")
    for _ in range(3):  # every read goes on; the warning is said once
        assert cache.get_many([f"k{n}" for n in range(400)]) == {}
    cache.put("fresh", 1)
    assert cache.get("fresh") == 1 and len(cache) == 1
    cache.close()
    (warning,) = _warnings(caplog)
    assert str(path) in warning and "made again from empty" in warning
    with sqlite3.connect(path) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_damaged_file_another_process_holds_is_left_until_it_lets_go(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_file, "RETRY_S", 0.0)
    path = tmp_path / "llm_cache.sqlite"
    _filled(path)
    with holding_open(path):
        _damage_pages(path)
        cache = DiskCache(path, "responses")
        assert cache.get("k1") is None
        cache.put("fresh", 1)  # not kept, and no error
        assert not list(tmp_path.glob("*.damaged-*")), "renamed under another process"
    assert cache.get("fresh") is None  # the file is set aside now, and made again
    cache.put("fresh", 1)
    assert cache.get("fresh") == 1
    cache.close()
    assert len(list(tmp_path.glob("llm_cache.sqlite.damaged-*"))) == 1
    (warning,) = _warnings(caplog)
    assert str(path) in warning and "once no other process has it open" in warning


def test_a_busy_file_costs_a_miss_not_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_file, "BUSY_TIMEOUT_S", 0.1)
    path = tmp_path / "llm_cache.sqlite"
    _filled(path, entries=1)
    cache = DiskCache(path, "responses")
    with holding_open(path, writing=True):
        cache.put("late", 1)
    assert cache.get("late") is None and cache.get("k0") == {"text": "x" * 200}
    cache.close()
    (warning,) = _warnings(caplog)
    assert str(path) in warning and "locked" in warning


async def test_calls_over_damaged_cache_files_go_on_with_one_warning_per_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    for name in (LLM_CACHE_FILE, EMBEDDING_CACHE_FILE):
        (tmp_path / name).write_bytes(b"\x00garbage" * 1000)
    llm = LLMCaller(LazyModel({"provider": "fake"}, lambda: FakeChatModel(rules=[("Q", "A")])),
                    LLMSettings(), tmp_path)
    embedder = EmbeddingCaller(FakeEmbeddings(), EmbeddingSettings(), tmp_path)
    for _ in range(2):
        assert await llm.complete("Q 1", stage="x") == "A"
        assert len((await embedder.embed(["Tulsa"]))[0]) > 0
    assert llm.usage.stages()["x"].cache_hits == 1  # the new file keeps the first reply
    llm.close()
    embedder.close()
    warnings = _warnings(caplog)
    assert len(warnings) == 2
    assert {w.split(" is damaged")[0] for w in warnings} == {
        f"The cache {tmp_path / LLM_CACHE_FILE}", f"The cache {tmp_path / EMBEDDING_CACHE_FILE}"}
