"""Free cores come from a short sample of /proc/stat, not the lagging load average."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from graphrag_neo4j.llm.offline import cores


def _stat(path: Path, busy: int, idle: int) -> None:
    # user nice system idle iowait irq softirq steal
    path.write_text(f"cpu  {busy} 0 0 {idle} 0 0 0 0 0 0\ncpu0 1 2 3 4\n")


def test_busy_cores_are_the_share_of_busy_jiffies_in_the_sample(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    stat = tmp_path / "stat"
    _stat(stat, busy=100, idle=100)
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    # During the sample 30 of 40 jiffies were busy: three of four cores.
    monkeypatch.setattr("time.sleep", lambda _: _stat(stat, busy=130, idle=110))
    monkeypatch.setattr("os.getloadavg", lambda: (4.0, 0.0, 0.0))  # lagging: must not be used
    assert cores.busy_cores(0.1, stat) == pytest.approx(3.0)


def test_free_cores_leave_room_for_busy_ones_and_keep_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    monkeypatch.setattr(cores, "busy_cores", lambda: 0.2)
    assert cores.free_cores() == 2
    monkeypatch.setattr(cores, "busy_cores", lambda: 5.0)
    assert cores.free_cores() == 1


def test_without_proc_stat_the_load_average_is_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("os.getloadavg", lambda: (1.5, 0.0, 0.0))
    assert cores.busy_cores(0.0, tmp_path / "missing") == 1.5


def test_the_real_sample_is_a_share_of_the_machine() -> None:
    assert 0.0 <= cores.busy_cores(0.05) <= (os.cpu_count() or 1)
