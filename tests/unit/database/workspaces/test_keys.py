"""Workspace keys: made once, kept as hashes in a user-only file, found, revoked."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.database.workspaces.keys import KEYS_FILE, KeyFile
from graphrag_neo4j.runtime.errors import ConfigError


def test_a_key_is_kept_hashed_found_again_and_revoked(tmp_path: Path) -> None:
    keys = KeyFile(tmp_path)
    record, key = keys.create("acme")
    stored = (tmp_path / KEYS_FILE).read_text(encoding="utf-8")
    assert key not in stored and record.hash in stored
    assert (tmp_path / KEYS_FILE).stat().st_mode & 0o077 == 0
    again = KeyFile(tmp_path)  # a restarted server
    assert again.find(key) == record and again.find(key + "x") is None
    assert "hash" not in record.public()
    other, _ = again.create("default")
    assert other.workspace == "" and again.delete_workspace("acme") == 1
    assert again.find(key) is None and not again.delete(record.id)
    assert again.delete(other.id) and again.all() == []


def test_a_bad_workspace_name_or_file_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="single underscores"):
        KeyFile(tmp_path).create("a b")
    (tmp_path / KEYS_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match="unreadable"):
        KeyFile(tmp_path)
