"""The local Ray cluster the test command starts, and its worker processes found by title."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

# Set by scripts/ray-cluster.sh (through scripts/test.sh): the cluster tests run `--ray` on.
ADDRESS_ENV = "RAY_ADDRESS"
# Ray titles a worker process after the task it runs ("ray::count_terms"), "ray::IDLE" between.
TASK_PREFIX = "ray::"


def cluster_address() -> str:
    """The test command's Ray cluster; a run without one fails, it never skips."""
    address = os.environ.get(ADDRESS_ENV)
    if not address:
        pytest.fail(f"{ADDRESS_ENV} is not set: run the Ray tests through scripts/test.sh, which"
                    " starts a local two-node Ray cluster (scripts/ray-cluster.sh).")
    return address


def titled(*titles: str) -> list[int]:
    """This user's processes whose title is one of `titles`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != os.getuid():
                continue
            title = (entry / "cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        if title.strip() in titles:
            found.append(int(entry.name))
    return found


def kill_first(titles: tuple[str, ...], within_s: float) -> int | None:
    """SIGKILL the first process found with one of `titles` within `within_s` seconds."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        for pid in titled(*titles):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            return pid
        time.sleep(0.002)
    return None
