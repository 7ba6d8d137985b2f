"""A stage that fails in a chosen batch after the batch's writes: an index run stopped there."""

from __future__ import annotations

from typing import Any

import pytest

from graphrag_neo4j.indexing.stages import registry


class FailingStage:
    """Raises KeyError('injected') in its `in_batch`-th batch and does nothing in the others."""

    label = "injected failure"
    estimate_row = "resolution"
    usage_key = None

    def __init__(self, in_batch: int = 1) -> None:
        self.in_batch, self.seen = in_batch, 0

    async def run(self, state: Any, services: Any, progress: Any) -> None:
        self.seen += 1
        if self.seen == self.in_batch:
            raise KeyError("injected")

    def estimate(self, inputs: Any) -> list[Any]:
        return []


def fail_after_writes(monkeypatch: pytest.MonkeyPatch, in_batch: int = 1) -> None:
    """Put a FailingStage right after the stages that write a batch's chunks and mentions."""
    stages = registry.AFTER_EXTRACTION
    monkeypatch.setattr(registry, "AFTER_EXTRACTION",
                        (*stages[:2], FailingStage(in_batch), *stages[2:]))
