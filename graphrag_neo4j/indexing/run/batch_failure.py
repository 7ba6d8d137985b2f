"""An unexpected error in one batch of a run: the traceback to a log file, one sentence out."""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.runtime.errors import GraphRAGError
from graphrag_neo4j.runtime.resources import append_private

LOG_NAME = "index-errors.log"
NAMED_DOCUMENTS = 3  # the sentence names this many documents of the batch, then counts the rest


class BatchFailedError(GraphRAGError):
    """A batch of an indexing run failed on something the engine did not foresee."""


def log_path(cache_dir: Path) -> Path:
    """Where indexing writes the tracebacks of failed batches."""
    return cache_dir / "logs" / LOG_NAME


def batch_failure(
    error: BaseException, number: int, total: int, documents: Sequence[Document], log: Path,
    rolled_back: bool,
) -> BatchFailedError:
    """Append the traceback to `log` and say, in one sentence, which batch and documents
    failed, where the traceback is, and that a re-run resumes."""
    append_private(log, f"--- {datetime.now(UTC).isoformat()} batch {number} of {total}: "
                        f"{', '.join(d.id for d in documents)}\n"
                        + "".join(traceback.format_exception(error)))
    state = ("its writes were rolled back" if rolled_back
             else "its documents were left unmarked and are cleared first on the next run")
    return BatchFailedError(
        f"Indexing batch {number} of {total} ({_named(documents)}) failed with "
        f"{type(error).__name__}: {str(error)[:200]}; the traceback is in {log}; {state}, and "
        "every earlier batch is complete, so running the same command again resumes from "
        "this batch."
    )


def _named(documents: Sequence[Document]) -> str:
    names = ", ".join(repr(d.title or d.id) for d in documents[:NAMED_DOCUMENTS])
    more = len(documents) - NAMED_DOCUMENTS
    return f"{names} and {more} more" if more > 0 else names
