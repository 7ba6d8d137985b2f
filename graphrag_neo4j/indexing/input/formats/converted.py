"""HTML, Word, PowerPoint, Excel and EPUB files as Markdown through MarkItDown, headings kept.

MarkItDown (what Microsoft GraphRAG reads such files with) keeps headings as `#` lines and
tables as Markdown tables; docs/formats.md says why it was chosen over the alternatives.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphrag_neo4j.indexing.input.formats.places import heading_places, heading_text
from graphrag_neo4j.indexing.records import Place
from graphrag_neo4j.runtime.errors import InputError

# An OLE2 compound file: what an encrypted .docx/.pptx/.xlsx is (and an old .doc/.ppt/.xls).
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_SLIDE_MARK = re.compile(r"\n*<!-- Slide number: (\d+) -->\n*")
_FIRST_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_BLANK_RUNS = re.compile(r"\n{3,}")
# Page furniture, not content: HTML5 navigation, and the navigation bars of DocBook's chunked
# HTML (what most manuals in Linux distributions are built with).
_NAVIGATION = ("nav", "[role=navigation]", "div.navheader", "div.navfooter")
# Links and images are kept as their text: a link target is not content, and in every chunk
# it would become an entity candidate.
_MARKDOWN_OPTIONS: dict[str, Any] = {"strip": ["a", "img"]}
_HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
_OFFICE_SUFFIXES = frozenset({".docx", ".pptx", ".xlsx"})
# The MarkItDown converter class for each suffix this module reads.
_CONVERTERS = {**dict.fromkeys(_HTML_SUFFIXES, "HtmlConverter"), ".docx": "DocxConverter",
               ".pptx": "PptxConverter", ".xlsx": "XlsxConverter", ".epub": "EpubConverter"}



@dataclass(frozen=True)
class Converted:
    """A file's text as Markdown, its title, and where its pages (slides) and sections start."""

    title: str
    text: str
    places: tuple[Place, ...]


def convert_file(path: Path, label: str, max_chars: int) -> Converted:
    """Convert one file; InputError naming it when it is encrypted, damaged or empty."""
    data = _read(path)
    if path.suffix.lower() in _OFFICE_SUFFIXES and data.startswith(_OLE2_MAGIC):
        raise InputError(
            f"{path} is password-protected (or an old binary Office file); save an unprotected "
            f"{label} copy."
        )
    try:
        markdown, title = _markdown(path, data)
    except Exception as exc:  # the converters raise many error types on damaged files
        cause = exc.__cause__ or exc
        raise InputError(
            f"{path} cannot be read as {label} ({type(cause).__name__}: {cause}); re-save it."
        ) from None
    text, pages = _without_slide_marks(_BLANK_RUNS.sub("\n\n", markdown.replace("\r\n", "\n")))
    if not text.strip():
        raise InputError(f"{path} has no text to index; check that it is not only images.")
    check_length(path, text, max_chars)
    return Converted(title or _first_heading(text) or path.stem, text,
                     heading_places(text, pages))


def check_length(path: Path, text: str, max_chars: int) -> None:
    """InputError naming the file when its text is longer than a document may be."""
    if len(text) > max_chars:
        raise InputError(
            f"{path} holds {len(text):,} characters of text, over the limit; split it."
        )


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(
            f"{path} cannot be read ({exc.strerror or exc}); check that it is readable."
        ) from None


def _markdown(path: Path, data: bytes) -> tuple[str, str]:
    """(Markdown, title or "") of a file's bytes, by the converter of its suffix alone:
    MarkItDown's own dispatch falls back to reading a damaged file as plain text."""
    # Imported on first use: the converters load their libraries at import.
    from markitdown import StreamInfo, converters

    suffix = path.suffix.lower()
    if suffix in _HTML_SUFFIXES:
        data = _without_navigation(data)
    converter = getattr(converters, _CONVERTERS[suffix])()
    info = StreamInfo(extension=suffix, filename=path.name, local_path=str(path))
    result = converter.convert(io.BytesIO(data), info, **_MARKDOWN_OPTIONS)
    return result.markdown, (result.title or "").strip()


def _without_navigation(data: bytes) -> bytes:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(data, "html.parser")
    for element in soup.select(", ".join(_NAVIGATION)):
        element.decompose()
    return soup.encode("utf-8")


def _without_slide_marks(markdown: str) -> tuple[str, list[tuple[int, int]]]:
    """The text without MarkItDown's slide comments, and where each slide starts in it."""
    pieces: list[str] = []
    pages: list[tuple[int, int]] = []
    length = cursor = 0
    for mark in _SLIDE_MARK.finditer(markdown):
        piece = markdown[cursor : mark.start()]
        pieces.append(piece)
        length += len(piece)
        if length:
            pieces.append("\n\n")
            length += 2
        pages.append((length, int(mark.group(1))))
        cursor = mark.end()
    pieces.append(markdown[cursor:])
    return "".join(pieces), pages


def _first_heading(text: str) -> str:
    match = _FIRST_HEADING.search(text)
    return heading_text(match.group(1)) if match else ""
