"""Reading input files of the formats in `formats` into Documents; bad ones skipped, with why."""

from __future__ import annotations

import codecs
import logging
import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphrag_neo4j.database.content_ids import content_id
from graphrag_neo4j.indexing.input.formats.places import heading_places
from graphrag_neo4j.indexing.input.formats.registry import file_format, unsupported_reason
from graphrag_neo4j.indexing.input.record_files import (
    Record,
    file_records,
    id_problem,
    record_id,
)
from graphrag_neo4j.indexing.records import Document, Place
from graphrag_neo4j.runtime.errors import InputError, check_text
from graphrag_neo4j.settings import ExtractionSettings, setting_default

# LangChain's loaders are not used: TextLoader, CSVLoader and JSONLoader (which needs jq) raise
# on a bad file instead of naming it and moving on, and would not give record ids or sources.

MAX_TEXT_BYTES = 50 * 1024 * 1024
MAX_WARNINGS_PER_FILE = 5
_HEADING = re.compile(r"^\s{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_FRONT_MATTER_TITLE = re.compile(r"\A---\r?\n(?:.*\r?\n)*?title:[ \t]*(.+?)[ \t]*\r?\n", re.I)
_SPACES = re.compile(r"\s+")

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SkippedFile:
    """An input (a file, or a record or line in it) that was not loaded, and why."""

    path: Path
    reason: str


@dataclass
class LoadResult:
    """The documents read and the inputs skipped, for the CLI's summary."""

    documents: list[Document] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)


@dataclass(frozen=True)
class _Fields:
    text: str
    title: str
    id: str


class _FileReport:
    """Collects one file's documents and problems; warns for the first few problems only."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.documents: list[Document] = []
        self.skipped: list[SkippedFile] = []
        self.problems = 0

    def skip(self, reason: str) -> None:
        self.problems += 1
        if self.problems <= MAX_WARNINGS_PER_FILE:
            logger.warning(reason)
            self.skipped.append(SkippedFile(self.path, reason))

    def close(self) -> None:
        hidden = self.problems - MAX_WARNINGS_PER_FILE
        if hidden > 0:
            reason = f"{self.path}: {hidden} more records were skipped for the reasons above."
            logger.warning(reason)
            self.skipped.append(SkippedFile(self.path, reason))


def title_from_text(text: str, limit: int = 60) -> str:
    """A title for untitled text: its first `limit` characters with whitespace collapsed."""
    return _SPACES.sub(" ", text[: limit * 4]).strip()[:limit].rstrip()


def load_documents(
    paths: Sequence[Path],
    *,
    text_field: str = setting_default(ExtractionSettings, "text_field"),
    title_field: str = setting_default(ExtractionSettings, "title_field"),
    id_field: str = "id",
    max_bytes: int = MAX_TEXT_BYTES,
    follow_links: bool = False,
) -> LoadResult:
    """Read files and folders (recursively, sorted, hidden ones skipped) into documents.

    A folder walk does not leave the folder: a link in it pointing outside is skipped with a
    message unless `follow_links` (links to other files of the folder are read once).
    """
    fields = _Fields(text=text_field, title=title_field, id=id_field)
    result = LoadResult()
    first_source: dict[str, str] = {}
    for path, outside in _input_files(paths, follow_links):
        report = _FileReport(path)
        if outside:
            report.skip(
                f"{path} links outside {outside} ({path.resolve()}); not read. Pass"
                " --follow-links (follow_links=True) to index what links point to."
            )
        elif (refused := not_a_regular_file(path) or undecodable_name(path)) is not None:
            report.skip(refused)
        else:
            _load_file(path, fields, max_bytes, report)
        for document in report.documents:
            first = first_source.get(document.id)
            if first is None:
                first_source[document.id] = document.source
                result.documents.append(document)
            else:
                report.skip(
                    f"{document.source} has the same id {document.id!r} as {first} (same text, "
                    "or a repeated id field); only the first is loaded."
                )
        report.close()
        result.skipped.extend(report.skipped)
    return result


def _input_files(paths: Sequence[Path], follow_links: bool) -> Iterator[tuple[Path, Path | None]]:
    """Every file to read, once each, with the folder it would leave (None when it stays in).

    Explicit files come as given; folder contents come in sorted order.
    """
    missing = [str(path) for path in paths if not path.exists()]
    if missing:
        raise InputError(f"Input path {', '.join(missing)} does not exist; check the spelling.")
    seen: set[Path] = set()
    for path in paths:
        inside = path.resolve()
        for file in _walk(path, follow_links) if path.is_dir() else [path]:
            key = file.resolve()
            if key in seen:
                continue
            seen.add(key)
            leaves = path.is_dir() and not follow_links and not key.is_relative_to(inside)
            yield file, path if leaves else None


_SPECIAL_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                  (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def not_a_regular_file(path: Path) -> str | None:
    """Why `path` (or what it links to) is not read, when it is no regular file: opening a
    FIFO or a device would wait for a writer, or read forever; None for a regular file (or one
    that cannot be stat'ed: reading it names that problem)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _SPECIAL_KINDS if test(mode)), "not a regular file")
    return f"{path} is {kind}, not a regular file; not read. Copy its content into a file."


def undecodable_name(path: Path) -> str | None:
    """Why a file whose name is not UTF-8 is not read (its name would be the document's source
    and title), or None."""
    shown = str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    try:
        check_text(str(path), f"name of {shown}", "rename the file; it is not read")
    except InputError as exc:
        return str(exc)
    return None


def _walk(folder: Path, follow_links: bool = False) -> list[Path]:
    files: list[Path] = []
    # Each real folder is entered once: a link back to a folder above would walk forever.
    entered = {folder.resolve()}
    for root, dirs, names in os.walk(folder, followlinks=follow_links):
        kept = []
        for name in dirs:
            if name.startswith("."):
                continue
            if follow_links:
                real = (Path(root) / name).resolve()
                if real in entered:
                    continue
                entered.add(real)
            kept.append(name)
        dirs[:] = kept
        files.extend(Path(root) / name for name in names if not name.startswith("."))
    # Sorting the relative parts walks "a/b.txt" before "a-c.txt"'s folder siblings stably.
    return sorted(files, key=lambda file: file.relative_to(folder).parts)


def read_text(path: Path, *, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """A text file's content as str; InputError naming the file when it is not usable text."""
    data = _read_bytes(path, max_bytes)
    # Windows "Unicode" text files are UTF-16 with a byte order mark (and hence NUL bytes).
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    if b"\x00" in data and not utf16:
        raise InputError(
            f"{path} contains NUL bytes, so it looks binary; give a UTF-8 text file instead."
        )
    try:
        text = data.decode("utf-16" if utf16 else "utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "re-save it as UTF-8."
        ) from None
    if not text.strip():
        raise InputError(f"{path} is empty; add text to it or remove it from the input.")
    return _normalise_newlines(text)


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise InputError(
                f"{path} is {size / 2**20:.1f} MB, over the {max_bytes / 2**20:.0f} MB limit; "
                "split it into smaller files."
            )
        return path.read_bytes()
    except OSError as exc:
        raise InputError(
            f"{path} cannot be read ({exc.strerror or exc}); check that it exists and is readable."
        ) from None


def _normalise_newlines(text: str) -> str:
    # The same text saved on Windows and on Linux should be the same document (same id).
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _load_file(path: Path, fields: _Fields, max_bytes: int, report: _FileReport) -> None:
    kind = file_format(path)
    try:
        if kind is None:
            raise InputError(unsupported_reason(path))
        if kind.reader is not None:
            read = kind.reader(path, kind.label, max_bytes)
            report.documents.append(_document(read.text, read.title, str(path), places=read.places))
        elif kind.records:
            records = list(file_records(read_text(path, max_bytes=max_bytes), path, report.skip))
            _check_text_field(records, path, fields)
            for index, label, record in records:
                _add_record(record, index, label, fields, report)
        else:
            text = read_text(path, max_bytes=max_bytes)
            places = heading_places(text) if kind.markdown else ()
            title = _markdown_title(text) if kind.markdown else ""
            report.documents.append(_document(text, title or path.stem, str(path), places=places))
    except InputError as exc:
        report.skip(str(exc))
    except OSError as exc:  # e.g. a file removed or locked while the folder is read
        report.skip(f"{path} cannot be read ({exc.strerror or exc}); check that it is readable.")


def _markdown_title(text: str) -> str:
    """Markdown's title: its front-matter title, else its first heading ("" when neither)."""
    for pattern in (_FRONT_MATTER_TITLE, _HEADING):
        match = pattern.search(text)
        if match:
            return match.group(1).strip().strip("\"'")
    return ""


def _document(text: str, title: str, source: str, record_id: str | None = None,
              places: tuple[Place, ...] = ()) -> Document:
    # Without an id field the text is the identity, so the same text is the same document.
    doc_id = record_id if record_id is not None else content_id("document", text)
    return Document(id=doc_id, title=title or title_from_text(text), source=source, text=text,
                    places=places)


def _check_text_field(records: list[Record], path: Path, fields: _Fields) -> None:
    """One message for a file none of whose records has the text field (a wrong setting)."""
    if records and not any(fields.text in record for _, _, record in records):
        keys = ", ".join(dict.fromkeys(str(key) for _, _, r in records[:50] for key in r)) or "none"
        raise InputError(
            f"{path}: none of its {len(records)} records has a {fields.text!r} field (fields: "
            f"{keys}); set extraction.text_field to the field holding the text."
        )


def _add_record(
    record: dict[str, Any], index: int, label: str, fields: _Fields, report: _FileReport
) -> None:
    """Turn one JSON object or CSV row into a document, or skip it with the reason."""
    text = record.get(fields.text)
    if not isinstance(text, str) or not text.strip():
        keys = ", ".join(str(name) for name in list(record)[:8]) or "none"
        problem = "has no" if fields.text not in record else "has an empty or non-text"
        report.skip(
            f"{report.path} {label} {problem} {fields.text!r} field (fields: {keys}); set "
            "extraction.text_field to the field holding the text."
        )
        return
    bad_id = id_problem(record.get(fields.id), fields.id)
    if bad_id:
        report.skip(f"{report.path} {label} {bad_id}.")
        return
    own_id = record_id(record.get(fields.id))
    title = record.get(fields.title)
    report.documents.append(
        _document(
            _normalise_newlines(text),
            title.strip() if isinstance(title, str) else "",
            f"{report.path}#{own_id or index}",
            own_id or None,
        )
    )
