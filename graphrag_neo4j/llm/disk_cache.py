"""A small on-disk key-value store (SQLite) behind the LLM response and embedding caches."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from graphrag_neo4j.errors import ConfigError
from graphrag_neo4j.resources import PRIVATE_FILE_MODE, private_dir


def stable_key(*parts: Any) -> str:
    """sha256 over a canonical JSON rendering of `parts`, so equal inputs give equal keys."""
    payload = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _fix(exc: Exception) -> str:
    """What to do about a cache that cannot be opened: a damaged file (a copy taken while it
    was written, a full disk) is only cached replies, made again when asked."""
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return ("the file is damaged: delete it (it holds only cached replies, made again when"
                " needed) or point GRAPHRAG_CACHE_DIR at another folder")
    return "point GRAPHRAG_CACHE_DIR at a writable folder"


class DiskCache:
    """Maps string keys to JSON values in one SQLite table; safe to share between threads."""

    def __init__(self, path: Path, table: str) -> None:
        if not table.isidentifier():
            raise ValueError(f"Cache table name {table!r} must be an identifier.")
        self.path = path
        self._table = table
        self._lock = threading.Lock()
        try:
            private_dir(path.parent)
            # Cached prompts and replies hold the user's documents: user-only, like its folder.
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, PRIVATE_FILE_MODE))
            # check_same_thread=False because lookups run in worker threads; the lock serialises.
            self._conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30.0)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(
                f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
            self._conn.commit()
        except (OSError, sqlite3.Error) as exc:
            raise ConfigError(f"Cannot open the cache {path} ({exc}); {_fix(exc)}.") from exc

    def get(self, key: str) -> Any | None:
        """The stored value of `key`, or None."""
        with self._lock:
            row = self._conn.execute(
                f"SELECT value FROM {self._table} WHERE key = ?", (key,)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        """The stored values of those `keys` that are present."""
        wanted = list(dict.fromkeys(keys))
        found: dict[str, Any] = {}
        # SQLite caps bound parameters per statement; 500 stays well below every build's limit.
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            marks = ",".join("?" * len(batch))
            with self._lock:
                rows = self._conn.execute(
                    f"SELECT key, value FROM {self._table} WHERE key IN ({marks})", batch
                ).fetchall()
            found.update((key, json.loads(value)) for key, value in rows)
        return found

    def put(self, key: str, value: Any) -> None:
        """Store `value` (JSON-serialisable) under `key`."""
        self.put_many({key: value})

    def put_many(self, items: Mapping[str, Any]) -> None:
        """Store several values in one transaction."""
        rows = [(key, json.dumps(value, ensure_ascii=False)) for key, value in items.items()]
        with self._lock, self._conn:
            self._conn.executemany(
                f"INSERT OR REPLACE INTO {self._table} (key, value) VALUES (?, ?)", rows
            )

    def __len__(self) -> int:
        with self._lock:
            row = self._conn.execute(f"SELECT COUNT(*) FROM {self._table}").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()
