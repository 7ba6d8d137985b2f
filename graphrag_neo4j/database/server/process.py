"""Pid files and process liveness for the local Neo4j launcher JVM (POSIX).

A pid file can outlive its process (kill -9, reboot) and a pid can be reused by an unrelated
process, so "running" means: the pid is alive, not a zombie, and its command line is our
launcher serving the same home folder.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from pathlib import Path

LAUNCHER_MAIN = "graphragneo4j.Launcher"


def read_pid(pid_file: Path) -> int | None:
    """The pid stored in a pid file, or None if absent or garbled."""
    try:
        text = pid_file.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() and int(text) > 0 else None


def pid_alive(pid: int) -> bool:
    """True if the process exists and is not a zombie (reaping it if it is our child)."""
    with contextlib.suppress(ChildProcessError):
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    stat = Path(f"/proc/{pid}/stat")
    with contextlib.suppress(OSError, IndexError):
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return True


def command_line(pid: int) -> str | None:
    """A process's command line (Linux /proc, else `ps`), None when it cannot be read."""
    with contextlib.suppress(OSError):
        return (
            Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        )
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run(
            ["ps", "-o", "command=", "-p", str(pid)], capture_output=True, text=True, timeout=10
        )
        return done.stdout.strip() or None
    return None


def is_launcher_command(command: str, home: Path) -> bool:
    """True if a command line is our launcher JVM serving this home folder."""
    return LAUNCHER_MAIN in command and f"--home {home.resolve()} " in f"{command} "


def wait_for_exit(pid: int, timeout_s: float) -> bool:
    """Poll until the process is gone; False if it still runs after `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while pid_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True
