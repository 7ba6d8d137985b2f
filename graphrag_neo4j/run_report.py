"""Progress bars per stage and the end-of-run summary of an indexing run."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table


@dataclass
class IndexStats:
    """What an indexing run did, for the summary and for tests."""

    documents: int = 0
    unchanged_documents: int = 0
    changed_documents: int = 0
    skipped_files: int = 0
    chunks: int = 0
    entities: int = 0
    relations: int = 0
    merges: int = 0
    dropped_records: int = 0
    orphans_added: int = 0
    orphans_dropped: int = 0
    triplets: int = 0
    llm_decisions: int = 0
    stage_seconds: dict[str, float] = field(default_factory=dict)

    def table(self) -> Table:
        """The summary as a two-column table."""
        table = Table(title="Indexing summary", show_header=False)
        for name, value in self.__dict__.items():
            if name != "stage_seconds":
                table.add_row(name.replace("_", " "), f"{value:,}")
        for stage, seconds in self.stage_seconds.items():
            table.add_row(f"time: {stage}", f"{seconds:.1f} s")
        return table


class StageProgress:
    """One rich progress display with a bar per stage, counts and ETA."""

    def __init__(self, console: Console, stats: IndexStats) -> None:
        self.stats = stats
        self.progress = Progress(
            TextColumn("{task.description:<22}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )
        self._tasks: dict[str, TaskID] = {}

    def __enter__(self) -> StageProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def _task(self, name: str) -> TaskID:
        if name not in self._tasks:
            self._tasks[name] = self.progress.add_task(name, total=0)
        return self._tasks[name]

    def declare(self, name: str, total: int) -> None:
        """Show a stage's bar up front when its whole size is known."""
        self.progress.update(self._task(name), total=total)

    @contextmanager
    def stage(self, name: str, add_total: int = 0) -> Iterator[Callable[[int], None]]:
        """Enter a stage (again, once per batch): yields `advance(n)` and adds up its time."""
        task = self._task(name)
        if add_total:
            self.progress.update(task, total=(self.progress.tasks[task].total or 0) + add_total)
        started = time.perf_counter()

        def advance(amount: int) -> None:
            self.progress.advance(task, amount)

        try:
            yield advance
        finally:
            elapsed = time.perf_counter() - started
            self.stats.stage_seconds[name] = self.stats.stage_seconds.get(name, 0.0) + elapsed
