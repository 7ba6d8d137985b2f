"""Caches that processes share: one connection per process and file, locks never dropped,
and a forked child never uses its parent's connection."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from graphrag_neo4j.llm.cache.disk_cache import DiskCache
from graphrag_neo4j.llm.costs.stats import ModelStats
from graphrag_neo4j.llm.lazy_model import LazyModel
from graphrag_neo4j.llm.testing import FakeChatModel

# Turning WAL off needs every other connection gone: it fails while this process holds its locks.
_JOURNAL_OFF = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], timeout=0)
try:
    print(conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0])
except sqlite3.OperationalError as exc:
    print(exc)
"""


def _descriptors_of(path: Path) -> int:
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{fd}") == str(path)
        except FileNotFoundError:  # the listing's own descriptor, closed by now
            continue
    return count


def _other_process_switches_journal(path: Path) -> str:
    return subprocess.run([sys.executable, "-c", _JOURNAL_OFF, str(path)], capture_output=True,
                          text=True, check=True, timeout=60).stdout.strip()


def test_model_facts_beside_an_open_cache_keep_its_locks(tmp_path: Path) -> None:
    path = tmp_path / "llm_cache.sqlite"
    cache = DiskCache(path, "responses")
    cache.put("a", 1)
    # The facts memo opened the file beside the cache's connection, and closing that descriptor
    # dropped the process's locks: another process then took the WAL for unused.
    LazyModel({"provider": "fake"}, FakeChatModel).facts(lambda _: {"identity": "m"}, path)
    assert _other_process_switches_journal(path) == "database is locked"
    cache.close()


def test_tables_on_one_file_share_one_connection(tmp_path: Path) -> None:
    path = tmp_path / "llm_cache.sqlite"
    replies, facts, stats = (DiskCache(path, "responses"), DiskCache(path, "model_facts"),
                             ModelStats(path))
    replies.put("a", 1)
    facts.put("b", 2)
    stats.record("model", "stage", 10, 5, 0.5)
    assert _descriptors_of(path) == 1
    for handle in (replies, facts, stats):
        handle.close()
    assert _descriptors_of(path) == 0


def test_a_forked_child_writes_through_its_own_connection(tmp_path: Path) -> None:
    path = tmp_path / "llm_cache.sqlite"
    cache = DiskCache(path, "responses")
    cache.put("parent", 1)
    pid = os.fork()
    if pid == 0:  # the child: the inherited handle must not use the parent's connection
        ok = False
        try:
            cache.put("child", 2)
            ok = cache.get("parent") == 1 and _descriptors_of(path) == 2
            cache.close()
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    cache.put("after", 3)
    assert cache.get_many(["parent", "child", "after"]) == {"parent": 1, "child": 2, "after": 3}
    cache.close()
    with sqlite3.connect(path) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
