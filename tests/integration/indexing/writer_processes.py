"""Runs an indexing script in several processes at once, one shard and cache folder each."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_writers(script: str, source: Path, shards: list[str], tmp_path: Path,
                timeout: float) -> None:
    """`python -c script SOURCE SHARD CACHE` per shard, all at once; each must exit 0."""
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(source), shard,
                          str(tmp_path / f"cache-{n}")], env=dict(os.environ),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for n, shard in enumerate(shards)
    ]
    for proc in procs:
        out, _ = proc.communicate(timeout=timeout)
        assert proc.returncode == 0, out.decode("utf-8", "replace")[-3000:]
