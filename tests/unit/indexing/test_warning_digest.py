"""A run's warnings are told once per kind at its end, with a count and three examples."""

from __future__ import annotations

import logging

import pytest

from graphrag_neo4j.indexing.run.warning_digest import TELL_NOW, warnings_digested

batch_logger = logging.getLogger("graphrag_neo4j.indexing.indexer")
file_logger = logging.getLogger("graphrag_neo4j.indexing.input.loaders")


def test_twelve_batches_of_one_warning_become_one_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO), warnings_digested():
        for batch in range(12):
            batch_logger.warning("%d extracted names were refused; first: %r", batch + 3, "x")
        for name in ("a.png", "b.png", "c.png"):
            file_logger.warning(f"/docs/{name}: .png is not a format the indexer reads.")
        file_logger.warning("/docs/z.docx is password-protected; save an unprotected copy.")
        batch_logger.info("refused entity name 'x': code")  # quieter records pass through
        assert [r.levelno for r in caplog.records] == [logging.INFO]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 3
    assert warnings[0].startswith("12 warnings like this one: 3 extracted names")
    assert "also: 4 extracted names" in warnings[0] and "also: 5 extracted" in warnings[0]
    assert "6 extracted" not in warnings[0]
    assert warnings[1].startswith("3 warnings like this one: /docs/a.png")
    assert "also: /docs/b.png" in warnings[1] and "also: /docs/c.png" in warnings[1]
    assert warnings[2] == "/docs/z.docx is password-protected; save an unprotected copy."
    assert logging.getLogger("graphrag_neo4j").propagate  # restored


def test_a_warning_about_the_wait_under_way_is_told_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A run waiting for another said so only after the wait and the whole run were over."""
    with caplog.at_level(logging.INFO), warnings_digested():
        batch_logger.warning("waiting for the other run", extra=TELL_NOW)
        assert [r.getMessage() for r in caplog.records] == ["waiting for the other run"]
    assert len(caplog.records) == 1, "told once, not again in the digest"
