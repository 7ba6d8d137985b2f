"""PDF files through pypdf, page by page, so every chunk knows its pages."""

from __future__ import annotations

import logging
from pathlib import Path

from graphrag_neo4j.indexing.input.formats.converted import Converted, check_length
from graphrag_neo4j.indexing.input.formats.places import heading_places
from graphrag_neo4j.runtime.errors import InputError

PAGE_BREAK = "\n\n"
# pypdf warns on every odd object of a damaged file; the file's one reason is what counts.
logging.getLogger("pypdf").setLevel(logging.ERROR)


def read_pdf(path: Path, label: str, max_chars: int) -> Converted:
    """A PDF's text, pages joined by a blank line, with where each page starts; InputError
    naming the file when it is encrypted, damaged or holds no text (scanned pages)."""
    # Imported here: pypdf is only needed when a PDF is read, and it is slow to import.
    from pypdf import PdfReader

    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise InputError(f"{path} is password-protected; save an unprotected copy.")
        pages = [_normalised(page.extract_text() or "") for page in reader.pages]
        title = reader.metadata.title if reader.metadata else None
    except InputError:
        raise
    except Exception as exc:  # pypdf raises many error types on damaged files
        raise InputError(
            f"{path} cannot be read as {label} ({type(exc).__name__}: {exc}); re-export it."
        ) from None
    text, starts = _joined(pages)
    if not text:
        raise InputError(f"{path} has no extractable text (scanned pages?); run OCR on it first.")
    check_length(path, text, max_chars)
    return Converted((title or "").strip() or path.stem, text, heading_places("", starts))


def _normalised(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def _joined(pages: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """The pages with text joined, and (offset, page number from 1) where each starts."""
    parts: list[str] = []
    starts: list[tuple[int, int]] = []
    length = 0
    for number, page in enumerate(pages, start=1):
        if not page:
            continue
        if parts:
            parts.append(PAGE_BREAK)
            length += len(PAGE_BREAK)
        starts.append((length, number))
        parts.append(page)
        length += len(page)
    return "".join(parts), starts
