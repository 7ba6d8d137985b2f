"""Another process holding an SQLite file open (reading, or in a write transaction)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode=WAL")
conn.execute("BEGIN IMMEDIATE" if sys.argv[2] == "write" else "SELECT 1").fetchall()
print("ready", flush=True)
sys.stdin.readline()
"""


@contextmanager
def holding_open(path: Path, *, writing: bool = False) -> Iterator[None]:
    """For the block, a child process has `path` open (and a write transaction if `writing`)."""
    child = subprocess.Popen([sys.executable, "-c", _HOLDER, str(path),
                              "write" if writing else "read"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        yield
    finally:
        child.communicate("done\n", timeout=30)
