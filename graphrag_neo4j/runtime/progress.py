"""A rich progress display with one bar per stage (counts, ETA) that adds up each stage's time."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

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


class StageProgress:
    """One rich progress display with a bar per stage, counts and ETA."""

    def __init__(self, console: Console, stage_seconds: dict[str, float] | None = None) -> None:
        self.stage_seconds = {} if stage_seconds is None else stage_seconds
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

    def snapshot(self) -> list[dict[str, int | str]]:
        """Each stage's name, done count and total, for a status report (e.g. a server job)."""
        return [
            {"stage": task.description, "completed": int(task.completed),
             "total": int(task.total or 0)}
            for task in self.progress.tasks
        ]

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
            self.stage_seconds[name] = self.stage_seconds.get(name, 0.0) + elapsed
