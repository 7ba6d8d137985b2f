"""One index run at a time over the same documents: the lock's name, and the line a waiting run
prints."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.indexing.run import run_lock


def _docs(*ids: str) -> list[Document]:
    return [Document(i, "", "", "text") for i in ids]


class _HeldStore:
    """A store whose lock is held by someone else for `held_s` seconds."""

    def __init__(self, held_s: float) -> None:
        self.held_s = held_s
        self.names: list[str] = []

    @contextmanager
    def exclusive(self, name: str) -> Iterator[None]:
        self.names.append(name)
        time.sleep(self.held_s)
        yield


def test_the_same_documents_in_any_order_share_a_lock_and_others_do_not() -> None:
    name = run_lock.run_lock_name(_docs("a", "b"))
    assert name == run_lock.run_lock_name(_docs("b", "a"))
    assert name != run_lock.run_lock_name(_docs("a"))  # a shard of them goes on at once


@pytest.mark.parametrize(("held_s", "lines"), [(0.0, 0), (0.5, 1)])
def test_a_run_that_waits_says_so_once(
    held_s: float, lines: int, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(run_lock, "WAIT_NOTICE_S", 0.2)
    store = _HeldStore(held_s)
    ran = []
    with run_lock.one_run_per_input(cast(Store, store), _docs("a", "b")):
        ran.append(store.names[:])  # the run's body goes on only once the lock is held
    assert ran == [[run_lock.run_lock_name(_docs("a", "b"))]]
    time.sleep(0.3)  # a notice still due would have fired by now
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(said) == lines and store.names == [run_lock.run_lock_name(_docs("a", "b"))]
    if lines:
        assert "Another index run over these same 2 documents" in said[0]
    assert not [t for t in threading.enumerate() if isinstance(t, threading.Timer)]
