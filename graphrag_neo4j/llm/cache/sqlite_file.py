"""One SQLite connection per process and cache file, shared by every table on it; a damaged
file is set aside and made again, never fatal.

Why one connection: SQLite's locks are POSIX locks, which belong to a process and a file, and
closing ANY descriptor of the file drops all of them ("How To Corrupt An SQLite Database File",
2.2). A process that opened the file beside its connection (to set its mode, say) lost its
locks, and another process then took the WAL for unused and deleted it: a server sharing
`cache_dir` with a CLI run ended with "database disk image is malformed". Here the file is only
ever opened by SQLite, once per process; a forked child (connections must not cross a fork)
opens its own, as the registry is keyed by process id.

A damaged file (SQLITE_CORRUPT, SQLITE_NOTADB) is named in one warning, renamed aside and made
again from empty. It is renamed only while no other process has it open (checked with SQLite's
own lock bytes): renaming a file another process still uses would let that process, when it
closes, delete the new file's WAL by name. Until then this process goes on without the cache.
Other errors (a busy timeout, a full disk) cost the one operation only: a miss, or an entry
not kept, with one warning.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from filelock import FileLock

from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.runtime.resources import PRIVATE_FILE_MODE, private_dir

logger = logging.getLogger(__name__)
T = TypeVar("T")

# How long a statement waits for another process's write before it gives up (a miss).
BUSY_TIMEOUT_S = 30.0
# How long a process without its connection (the file damaged but still used elsewhere, or
# busy past the timeout) waits before it tries again.
RETRY_S = 5.0
# SQLite's lock bytes on unix (os_unix.c): PENDING, RESERVED, then 510 SHARED bytes. Every open
# connection in WAL mode holds a read lock on the SHARED range.
_LOCK_START = 0x40000000
_LOCK_SPAN = 512
_DAMAGE_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
# Errors that pass (another process writing for longer than the timeout): tried again later.
_PASSING_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
_SIDE_FILES = ("-wal", "-shm")
_OPEN: dict[tuple[int, str], SharedFile] = {}
_OPEN_LOCK = threading.Lock()


def shared_file(path: Path) -> SharedFile:
    """This process's one connection to the SQLite file at `path`, opened now if need be;
    `release()` it when done (the last release closes it)."""
    try:
        private_dir(path.parent)
        key = (os.getpid(), os.path.realpath(path))
        with _OPEN_LOCK:
            shared = _OPEN.get(key)
            if shared is None:
                shared = _OPEN[key] = SharedFile(Path(key[1]), key)
            shared.users += 1
            return shared
    except (OSError, sqlite3.Error) as exc:
        raise ConfigError(f"Cannot open the cache {path} ({exc}); point GRAPHRAG_CACHE_DIR at"
                          " a writable folder.") from exc


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether SQLite said the file itself is damaged (not busy, full or read-only)."""
    return _code(exc) in _DAMAGE_CODES


def _code(exc: sqlite3.Error) -> int | None:
    """SQLite's primary result code of `exc`."""
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


class SharedFile:
    """A connection used under a lock by every thread, with the statements that make its tables.

        db = shared_file(path)
        db.ensure("CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v TEXT)")
        rows = db.run(lambda conn: conn.execute("SELECT v FROM t").fetchall(), default=[])
    """

    def __init__(self, path: Path, key: tuple[int, str]) -> None:
        self.path = path
        self.users = 0
        self._key = key
        self._lock = threading.RLock()
        # One lock object per file and process: it is re-entrant, two objects would not be.
        self._flock = FileLock(f"{path}.lock", mode=PRIVATE_FILE_MODE)
        self._conn: sqlite3.Connection | None = None
        self._schema: list[str] = []
        self._retry_at = 0.0
        self._warned = False
        try:
            self._open()
        except sqlite3.Error as exc:
            if not (is_damage(exc) or _code(exc) in _PASSING_CODES):
                raise  # a file that cannot be opened at all: the caller names the setting
            self._failed(exc)

    @property
    def opened_here(self) -> bool:
        """Whether this process opened it (not a parent before a fork)."""
        return self._key[0] == os.getpid()

    def release(self) -> None:
        """One user fewer; the last one closes the connection."""
        with _OPEN_LOCK:
            self.users -= 1
            if self.users > 0 or _OPEN.get(self._key) is not self:
                return
            del _OPEN[self._key]
        with self._lock:
            self._close()

    def ensure(self, statement: str) -> None:
        """Run `statement` (a CREATE ... IF NOT EXISTS) now and after every rebuild."""
        with self._lock:
            if statement not in self._schema:
                self._schema.append(statement)
                self.run(lambda conn: conn.execute(statement), None)

    def run(self, operation: Callable[[sqlite3.Connection], T], default: T) -> T:
        """`operation` on the connection, or `default` when the file cannot serve it now."""
        with self._lock:
            conn = self._usable()
            if conn is None:
                return default
            try:
                return operation(conn)
            except sqlite3.Error as exc:
                self._failed(exc)
                return default

    def write(self, operation: Callable[[sqlite3.Connection], object]) -> None:
        """`operation` in one write transaction (taken at once, so it waits on the busy
        timeout instead of failing on a lock upgrade); not kept if the file cannot take it."""

        def transaction(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN IMMEDIATE")
            try:
                operation(conn)
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

        self.run(transaction, None)

    def _usable(self) -> sqlite3.Connection | None:
        if self._conn is None and time.monotonic() >= self._retry_at:
            try:
                self._open()
            except (OSError, sqlite3.Error) as exc:
                self._failed(exc)
        return self._conn

    def _open(self) -> None:
        # Under the file lock: no process opens the file while another sets it aside.
        with self._flock:
            conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_S,
                                   isolation_level=None, check_same_thread=False)
            try:
                # Cached prompts and replies hold the user's documents: user-only, like the
                # folder; SQLite gives the -wal and -shm files the database file's mode.
                self.path.chmod(PRIVATE_FILE_MODE)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")  # WAL stays consistent; it is a cache
                for statement in self._schema:
                    conn.execute(statement)
            except BaseException:
                conn.close()
                raise
            self._conn = conn

    def _failed(self, exc: OSError | sqlite3.Error) -> None:
        if isinstance(exc, sqlite3.Error) and is_damage(exc):
            self._set_aside(exc)
        else:
            if self._conn is None:
                self._retry_at = time.monotonic() + RETRY_S
            self._warn(f"The cache {self.path} failed ({exc}); this process goes on, with what it"
                       " could not read or write there made or asked for again.")

    def _set_aside(self, exc: OSError | sqlite3.Error) -> None:
        """Close this process's connection; rename the file aside if no process has it open."""
        self._close()
        with self._flock:
            unused, aside = self._rename_if_unused()
            if unused:
                kept = f"it was set aside as {aside.name}" if aside else "it is gone"
                self._warn(f"The cache {self.path} is damaged ({exc}): {kept} and is made again"
                           " from empty.")
                try:
                    self._open()
                    return
                except (OSError, sqlite3.Error) as again:
                    exc = again  # the new file cannot be made either (a full disk, say)
        self._retry_at = time.monotonic() + RETRY_S
        self._warn(f"The cache {self.path} is damaged ({exc}): this process goes on without it,"
                   " and it is set aside and made again once no other process has it open.")

    def _rename_if_unused(self) -> tuple[bool, Path | None]:
        """Rename the file and its -wal and -shm aside while no SQLite connection holds it:
        (whether none held it, the new name)."""
        if not self.path.exists():
            return True, None  # already gone: made again from empty
        # This process has no connection to the file now, so this descriptor drops no lock.
        fd = os.open(self.path, os.O_RDWR)
        try:
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, _LOCK_SPAN, _LOCK_START)
            except OSError:
                return False, None
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
            aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
            # The WAL and index first: a database renamed without them could meet their frames.
            for suffix in _SIDE_FILES:
                side = Path(f"{self.path}{suffix}")
                if side.exists():
                    side.replace(f"{aside}{suffix}")
            self.path.replace(aside)
            return True, aside
        finally:
            os.close(fd)

    def _warn(self, sentence: str) -> None:
        if not self._warned:  # once per process and file: a query loop must not repeat it
            self._warned = True
            logger.warning(sentence)

    def _close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None


def _forget_inherited() -> None:
    """In a forked child: the parent's connections stay untouched (closing or using them from
    here would act on the parent's locks and WAL); the child opens its own on first use."""
    global _OPEN_LOCK
    _OPEN_LOCK = threading.Lock()  # another thread may have held it at the fork
    _INHERITED.extend(_OPEN.values())
    _OPEN.clear()


# Kept referenced so a child never closes what it inherited while it runs.
_INHERITED: list[SharedFile] = []
os.register_at_fork(after_in_child=_forget_inherited)
