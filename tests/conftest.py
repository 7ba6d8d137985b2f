"""Shared fixtures: where the evaluation data lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED_DATA_CANDIDATES = (
    Path(os.environ.get("GRAPHRAG_SHARED_DATA", "/nonexistent")),
    REPO_ROOT.parent / "shared" / "data",
    Path("/work/shared/data"),
)


@pytest.fixture
def shared_data() -> Path:
    """The workplace's evaluation data; tests that need it skip with a reason outside it."""
    for candidate in SHARED_DATA_CANDIDATES:
        if candidate.is_dir():
            return candidate
    pytest.skip("evaluation data not found: set GRAPHRAG_SHARED_DATA to the shared/data folder")


@pytest.fixture
def nano_root() -> Path:
    """A folder holding milvus_nano/nano_dataset.json (bundled with the tests: it is tiny)."""
    return FIXTURES
