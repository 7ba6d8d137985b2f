"""How many CPU cores are free right now, for sizing the local model's threads."""

from __future__ import annotations

import os
import time
from pathlib import Path

PROC_STAT = Path("/proc/stat")
SAMPLE_S = 0.5


def cpu_times(stat: Path = PROC_STAT) -> tuple[int, int] | None:
    """(busy, total) jiffies of all cores since boot, or None where /proc/stat is missing."""
    try:
        fields = [int(value) for value in stat.read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def busy_cores(sample_s: float = SAMPLE_S, stat: Path = PROC_STAT) -> float:
    """Cores busy over the next `sample_s` seconds (the 1-minute load average without /proc).

    A sample, not the load average: that lags a minute, so right after our own indexing it
    still counts the cores indexing used and the model would start on too few threads.
    """
    cores = os.cpu_count() or 1
    before = cpu_times(stat)
    if before is None:
        return os.getloadavg()[0]
    time.sleep(sample_s)
    after = cpu_times(stat)
    if after is None or after[1] <= before[1]:
        return os.getloadavg()[0]
    return cores * (after[0] - before[0]) / (after[1] - before[1])


def free_cores() -> int:
    """Cores not busy with other work right now, at least one.

    A llama.cpp step waits for its slowest thread, so a thread sharing a core with another
    busy program stalls every step: fewer threads than cores beat one per core then.
    """
    cores = os.cpu_count() or 1
    return max(1, min(cores, cores - round(busy_cores())))
