"""Uploaded documents on disk: one user-only folder per job, safe file names, known formats;
a folder goes once no document read from it is left."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterable
from pathlib import Path

from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.input.formats.registry import SUPPORTED, file_format

_UNSAFE = re.compile(r"[^\w .-]+", flags=re.UNICODE)
_CHUNK_BYTES = 1 << 20


def safe_name(name: str, default_suffix: str = "") -> str:
    """A file name with no folders, no odd characters and no leading dot; the title comes
    from its stem, so it is kept readable."""
    stem_and_suffix = _UNSAFE.sub("_", Path(name.replace("\\", "/")).name).strip(" .")[:120]
    if not stem_and_suffix:
        stem_and_suffix = "document"
    if default_suffix and not Path(stem_and_suffix).suffix:
        stem_and_suffix += default_suffix
    if file_format(stem_and_suffix) is None:
        raise HTTPException(
            400, f"The file {name!r} has a format the indexer does not read; send {SUPPORTED}."
        )
    return stem_and_suffix


def job_folder(uploads_dir: Path, job_id: str) -> Path:
    """A new folder for one job's files, readable by this user only."""
    uploads_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    uploads_dir.chmod(0o700)
    folder = uploads_dir / job_id
    folder.mkdir(mode=0o700)
    return folder


def _private_file(path: Path) -> int:
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)


def save_record(folder: Path, fields: dict[str, str]) -> Path:
    """Write one JSON Lines record (text and title under the indexer's field names), so the
    title stays data, verbatim, and is never turned into a file name."""
    path = folder / "document.jsonl"
    with os.fdopen(_private_file(path), "w", encoding="utf-8") as handle:
        handle.write(json.dumps(fields, ensure_ascii=False) + "\n")
    return path


async def save_upload(folder: Path, name: str, upload: UploadFile) -> Path:
    """Copy an uploaded file into the job's folder, piece by piece."""
    path = folder / name
    with os.fdopen(_private_file(path), "wb") as handle:
        while piece := await upload.read(_CHUNK_BYTES):
            handle.write(piece)
    return path


def upload_folder(uploads_dir: Path, source: str | None) -> Path | None:
    """The job folder a document was read from (its `source` lies inside), if an upload."""
    if not source:
        return None
    for root in dict.fromkeys((uploads_dir, uploads_dir.resolve())):
        prefix = f"{root}{os.sep}"
        if source.startswith(prefix):
            name = source[len(prefix):].split(os.sep, 1)[0]
            if name and not name.startswith("."):
                return root / name
    return None


def _prefixes(folder: Path) -> list[str]:
    return list(dict.fromkeys(f"{f}{os.sep}" for f in (folder, folder.resolve())))


def remove_unused(store: Store, folders: Iterable[Path]) -> list[Path]:
    """Remove the upload folders no stored document was read from; the ones removed."""
    candidates = [f for f in folders if f.is_dir()]
    prefixes = {p: f for f in candidates for p in _prefixes(f)}
    if not prefixes:
        return []
    rows = store.read("api/count_documents_under", prefixes=list(prefixes))
    used = {prefixes[row["prefix"]] for row in rows if row["documents"]}
    removed = [f for f in candidates if f not in used]
    for folder in removed:
        shutil.rmtree(folder, ignore_errors=True)
    return removed


def job_folders(uploads_dir: Path) -> list[Path]:
    """Every upload folder (the job files' own folder aside)."""
    if not uploads_dir.is_dir():
        return []
    return [p for p in uploads_dir.iterdir() if p.is_dir() and not p.name.startswith(".")]
