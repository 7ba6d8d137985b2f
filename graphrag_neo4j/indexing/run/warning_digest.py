"""An indexing run's warnings told once at its end: each kind with its count and first three
examples, instead of one block per batch or per file."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager

EXAMPLES = 3
PACKAGE_LOGGER = "graphrag_neo4j"
# What differs between two warnings of one kind when the message is built in advance: paths,
# quoted names and numbers.
_VARYING = re.compile(r"\S*[/\\]\S*|'[^']*'|\"[^\"]*\"|\d[\d,.]*")
# A warning logged with `extra=TELL_NOW` is shown when it happens, not kept for the run's end:
# it tells the user about the wait they are in (a run waiting for another to finish).
TELL_NOW = {"tell_now": True}


class WarningDigest(logging.Handler):
    """Keeps the warnings of a run by kind (the message template, or the message with its
    paths, names and numbers blanked); lets quieter records through to the usual handlers."""

    def __init__(self, parent: logging.Logger | None) -> None:
        super().__init__(logging.NOTSET)
        self.parent = parent
        self.examples: dict[str, list[str]] = {}
        self.counts: dict[str, int] = {}

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < logging.WARNING or getattr(record, "tell_now", False):
            if self.parent is not None:
                self.parent.handle(record)
            return
        message = record.getMessage()
        kind = str(record.msg) if record.args else _VARYING.sub("#", message)
        self.counts[kind] = self.counts.get(kind, 0) + 1
        examples = self.examples.setdefault(kind, [])
        if len(examples) < EXAMPLES:
            examples.append(message)

    def summary(self) -> list[str]:
        """One entry per kind, in the order first seen: its first examples, and for a kind seen
        more than once its count."""
        lines = []
        for kind, examples in self.examples.items():
            count = self.counts[kind]
            if count == 1:
                lines.append(examples[0])
                continue
            also = "".join(f"\n  also: {example}" for example in examples[1:])
            lines.append(f"{count:,} warnings like this one: {examples[0]}{also}")
        return lines


@contextmanager
def warnings_digested() -> Iterator[WarningDigest]:
    """Within the block the package's warnings are gathered; at its end each kind is logged
    once (by the package logger, so the usual handlers show it)."""
    package = logging.getLogger(PACKAGE_LOGGER)
    digest = WarningDigest(package.parent)
    propagates = package.propagate
    package.addHandler(digest)
    package.propagate = False
    try:
        yield digest
    finally:
        package.removeHandler(digest)
        package.propagate = propagates
        for line in digest.summary():
            package.warning(line)
