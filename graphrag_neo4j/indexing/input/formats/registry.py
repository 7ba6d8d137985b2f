"""The one list of formats the indexer reads, for the CLI, the Python API and the HTTP API."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from graphrag_neo4j.indexing.input.formats.converted import Converted, convert_file
from graphrag_neo4j.indexing.input.formats.pdf import read_pdf

# (path, the format's label for messages, the most characters of text) -> the document
Reader = Callable[[Path, str, int], Converted]


@dataclass(frozen=True)
class Format:
    """A kind of file: its label, suffixes, and how it is read: `records` formats hold one
    document per record (JSON objects, CSV rows), `reader` converts one file into one
    document, neither is text read as it is; `markdown` text has its headings as sections
    and its title in front matter or its first heading."""

    label: str
    suffixes: tuple[str, ...]
    records: bool = False
    reader: Reader | None = None
    markdown: bool = False


FORMATS = (
    Format("text", (".txt", ".text")),
    Format("Markdown", (".md", ".markdown"), markdown=True),
    Format("PDF", (".pdf",), reader=read_pdf),
    Format("HTML", (".html", ".htm", ".xhtml"), reader=convert_file),
    Format("Word", (".docx",), reader=convert_file),
    Format("PowerPoint", (".pptx",), reader=convert_file),
    Format("Excel", (".xlsx",), reader=convert_file),
    Format("EPUB", (".epub",), reader=convert_file),
    Format("JSON", (".json",), records=True),
    Format("JSON Lines", (".jsonl", ".ndjson"), records=True),
    Format("CSV", (".csv", ".tsv"), records=True),
)
_BY_SUFFIX = {suffix: entry for entry in FORMATS for suffix in entry.suffixes}
SUFFIXES = frozenset(_BY_SUFFIX)
SUPPORTED = ", ".join(suffix for entry in FORMATS for suffix in entry.suffixes)


def file_format(path: Path | str) -> Format | None:
    """The format a file name's suffix names, or None when the indexer does not read it."""
    return _BY_SUFFIX.get(Path(path).suffix.lower())


def unsupported_reason(path: Path) -> str:
    """One sentence: why a file of an unread format is skipped, and what to do."""
    kind = path.suffix.lower() or "a file without extension"
    return (f"{path}: {kind} is not a format the indexer reads (docs/formats.md lists them); "
            "convert it or leave it out.")
