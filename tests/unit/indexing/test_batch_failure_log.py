"""The failed-batch log holds the user's document ids and tracebacks: user-only, and records
appended by processes at once never interleave."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.indexing.run.batch_failure import batch_failure, log_path


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _failure(log: Path, number: int) -> None:
    try:
        raise ValueError(f"boom {number}")
    except ValueError as error:
        batch_failure(error, number, 9, [Document(f"doc-{number}", "", "", "t")], log, True)


def test_the_log_and_its_folder_are_user_only_whatever_the_umask(tmp_path: Path) -> None:
    log = log_path(tmp_path / "cache")
    old = os.umask(0o022)
    try:
        _failure(log, 1)
    finally:
        os.umask(old)
    assert _mode(log.parent) == 0o700 and _mode(log) == 0o600


def test_an_open_log_from_before_is_narrowed(tmp_path: Path) -> None:
    log = log_path(tmp_path)
    log.parent.mkdir(mode=0o755)
    log.parent.chmod(0o755)
    log.write_text("old record\n")
    log.chmod(0o644)
    _failure(log, 1)
    assert _mode(log.parent) == 0o700 and _mode(log) == 0o600
    assert log.read_text().startswith("old record\n")


def test_records_appended_by_forked_processes_stay_whole(tmp_path: Path) -> None:
    log = log_path(tmp_path)
    children = []
    for number in range(4):
        pid = os.fork()
        if pid == 0:
            try:
                for _ in range(25):
                    _failure(log, number)
            finally:
                os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    records = log.read_text().split("--- ")[1:]
    assert len(records) == 100
    for record in records:
        failed = record.split("batch ")[1].split(" ")[0]
        assert f"doc-{failed}" in record and record.rstrip().endswith(f"ValueError: boom {failed}")
