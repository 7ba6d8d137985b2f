"""API keys bound to workspaces, kept hashed in one user-only JSON file.

A key is 32 random bytes (URL-safe text), shown once when it is made; the file keeps only its
SHA-256, which is enough for a key of that entropy (no one guesses 256 bits, so a slow hash
would only slow every request). Each key reads and writes its one workspace.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from graphrag_neo4j.database.workspaces.names import check_name
from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.runtime.resources import PRIVATE_FILE_MODE, private_dir

KEYS_FILE = "workspace-keys.json"


def key_hash(key: str) -> str:
    """What the file keeps of a key."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class BoundKey:
    """A key's record: its id (to list and delete it), its workspace, when it was made."""

    id: str
    workspace: str
    created_at: float
    hash: str

    def public(self) -> dict[str, object]:
        """What the admin sees of it: never the hash."""
        return {"id": self.id, "workspace": self.workspace or "default",
                "created_at": self.created_at}


class KeyFile:
    """The keys of one server: `<folder>/workspace-keys.json`, read once, rewritten whole."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / KEYS_FILE
        self._lock = threading.Lock()
        self._keys = {key.hash: key for key in self._load()}

    def _load(self) -> list[BoundKey]:
        if not self.path.is_file():
            return []
        try:
            return [BoundKey(**row) for row in json.loads(self.path.read_text("utf-8"))]
        except (OSError, ValueError, TypeError) as exc:
            raise ConfigError(f"The workspace key file {self.path} is unreadable ({exc}):"
                              " restore it from a backup, or delete it and make new keys.") from exc

    def _save(self) -> None:
        private_dir(self.path.parent)
        partial = self.path.with_suffix(".tmp")
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE_MODE)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump([asdict(key) for key in self._keys.values()], handle)
        partial.replace(self.path)

    def create(self, workspace: str) -> tuple[BoundKey, str]:
        """A new key of `workspace` (its name checked): the record and the key, shown once."""
        key = secrets.token_urlsafe(32)
        record = BoundKey(secrets.token_hex(8), check_name(workspace), time.time(),
                          key_hash(key))
        with self._lock:
            self._keys[record.hash] = record
            self._save()
        return record, key

    def find(self, key: str) -> BoundKey | None:
        """The record of a key given by a client, or None."""
        return self._keys.get(key_hash(key))

    def all(self) -> list[BoundKey]:
        """Every key's record, oldest first."""
        return sorted(self._keys.values(), key=lambda key: key.created_at)

    def delete(self, key_id: str) -> bool:
        """Forget the key with this id; whether there was one."""
        return self._forget(lambda key: key.id == key_id) > 0

    def delete_workspace(self, workspace: str) -> int:
        """Forget every key of `workspace`; how many."""
        return self._forget(lambda key: key.workspace == workspace)

    def _forget(self, matches: Callable[[BoundKey], bool]) -> int:
        with self._lock:
            gone = [h for h, key in self._keys.items() if matches(key)]
            for found in gone:
                del self._keys[found]
            if gone:
                self._save()
        return len(gone)
