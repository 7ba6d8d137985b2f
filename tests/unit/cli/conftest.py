"""The CLI's tests leave the test process's garbage collector as they found it."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    """`main()` tunes the collector for its own process; undo that after each test."""
    threshold = gc.get_threshold()
    yield
    gc.set_threshold(*threshold)
    gc.unfreeze()
