"""A small on-disk key-value store (SQLite) behind the LLM response and embedding caches."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from graphrag_neo4j.llm.cache.sqlite_file import SharedFile, shared_file


def stable_key(*parts: Any) -> str:
    """sha256 over a canonical JSON rendering of `parts`, so equal inputs give equal keys."""
    payload = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _fetch_all(statement: str, parameters: Sequence[Any]
               ) -> Callable[[sqlite3.Connection], list[Any]]:
    return lambda conn: conn.execute(statement, parameters).fetchall()


class DiskCache:
    """Maps string keys to JSON values in one SQLite table; safe to share between threads and
    processes (see `sqlite_file`: one connection per process and file, damage set aside).

    A read the file cannot serve is a miss and a write it cannot take is not kept: a cache
    never fails the run that uses it.
    """

    def __init__(self, path: Path, table: str) -> None:
        if not table.isidentifier():
            raise ValueError(f"Cache table name {table!r} must be an identifier.")
        self.path = path
        self._table = table
        self._file: SharedFile | None = None
        self._open()

    def _open(self) -> SharedFile:
        self._file = shared_file(self.path)
        self._file.ensure(f"CREATE TABLE IF NOT EXISTS {self._table} "
                          "(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        return self._file

    @property
    def _db(self) -> SharedFile:
        if self._file is None:
            raise RuntimeError(f"The cache {self.path} is closed.")
        # A handle that crossed a fork: the child uses a connection of its own.
        return self._file if self._file.opened_here else self._open()

    def get(self, key: str) -> Any | None:
        """The stored value of `key`, or None."""
        return self.get_many([key]).get(key)

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        """The stored values of those `keys` that are present."""
        wanted = list(dict.fromkeys(keys))
        found: dict[str, Any] = {}
        # SQLite caps bound parameters per statement; 500 stays well below every build's limit.
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            marks = ",".join("?" * len(batch))
            statement = f"SELECT key, value FROM {self._table} WHERE key IN ({marks})"
            rows: list[Any] = self._db.run(_fetch_all(statement, batch), [])
            found.update((key, json.loads(value)) for key, value in rows)
        return found

    def put(self, key: str, value: Any) -> None:
        """Store `value` (JSON-serialisable) under `key`."""
        self.put_many({key: value})

    def put_many(self, items: Mapping[str, Any]) -> None:
        """Store several values in one transaction."""
        rows = [(key, json.dumps(value, ensure_ascii=False)) for key, value in items.items()]
        if not rows:
            return
        statement = f"INSERT OR REPLACE INTO {self._table} (key, value) VALUES (?, ?)"
        self._db.write(lambda conn: conn.executemany(statement, rows))

    def __len__(self) -> int:
        statement = f"SELECT COUNT(*) FROM {self._table}"
        return int(self._db.run(lambda conn: conn.execute(statement).fetchone()[0], 0))

    def close(self) -> None:
        """Let go of the file (the process's last user closes its connection)."""
        if self._file is not None:
            self._file.release()
            self._file = None
