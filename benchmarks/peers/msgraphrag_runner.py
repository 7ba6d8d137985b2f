"""Runs Microsoft GraphRAG's `graphrag index` in its own venv, optionally without the memory
profiler its pipeline wraps around every workflow (tracemalloc.start/stop per workflow).

    .venv-msgraphrag/bin/python msgraphrag_runner.py ROOT METHOD [--no-profiler]
This file is executed by their interpreter: it imports only their package and the standard
library.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType


class _TimerOnly:
    """WorkflowProfiler without tracemalloc: the same timing, no allocation tracing."""

    def __enter__(self) -> _TimerOnly:
        self._start = time.time()
        self._elapsed = 0.0
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._elapsed = time.time() - self._start

    @property
    def metrics(self) -> object:
        from graphrag.index.typing.stats import WorkflowMetrics  # type: ignore[import-not-found]

        return WorkflowMetrics(overall=self._elapsed, peak_memory_bytes=0,
                               memory_delta_bytes=0, tracemalloc_overhead_bytes=0)


def main() -> None:
    root, method, *flags = sys.argv[1:]
    if "--no-profiler" in flags:
        import graphrag.index.run.run_pipeline as run_pipeline  # type: ignore[import-not-found]

        run_pipeline.WorkflowProfiler = _TimerOnly  # looked up per workflow, at call time
    from graphrag.cli.main import app  # type: ignore[import-not-found]

    app(["index", "--root", root, "--method", method], standalone_mode=False)


if __name__ == "__main__":
    main()
