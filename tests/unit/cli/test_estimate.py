"""`index --estimate` on inputs with nothing to estimate: one sentence, no model, no server."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.runtime.errors import InputError


def _estimate(tmp_path: Path, target: Path, monkeypatch: pytest.MonkeyPatch) -> InputError:
    monkeypatch.setenv("GRAPHRAG_CACHE_DIR", str(tmp_path / "cache"))
    _register_subcommands()
    result = CliRunner().invoke(app, ["index", str(target), "--estimate"])
    assert result.exit_code != 0
    assert isinstance(result.exception, InputError)
    return result.exception


def _one_sentence(error: InputError) -> str:
    text = str(error)
    assert "\n" not in text and text.endswith(".") and text.count(". ") == 0
    return text


def test_an_empty_folder_is_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "docs"
    empty.mkdir()
    text = _one_sentence(_estimate(tmp_path, empty, monkeypatch))
    assert text.startswith("Nothing to estimate") and str(empty) in text


def test_an_unreadable_file_is_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    binary = tmp_path / "scan.txt"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    text = _one_sentence(_estimate(tmp_path, binary, monkeypatch))
    assert "no readable document" in text and "scan.txt" in text and "binary" in text
    unknown = tmp_path / "scan.bin"
    unknown.write_bytes(b"\x00\x01\x02" * 100)
    text = _one_sentence(_estimate(tmp_path, unknown, monkeypatch))
    assert "scan.bin" in text and "not a format the indexer reads" in text


def test_a_missing_path_is_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = str(_estimate(tmp_path, tmp_path / "nope.txt", monkeypatch))
    assert "does not exist" in text
