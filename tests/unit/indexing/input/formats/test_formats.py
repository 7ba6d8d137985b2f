"""HTML, Word, PowerPoint, Excel, EPUB and PDF read with their headings, pages and spans;
encrypted, damaged and image-only files refused one by one with a reason."""

from __future__ import annotations

import re
from pathlib import Path

from graphrag_neo4j.indexing.input.chunking import chunk_document
from graphrag_neo4j.indexing.input.formats.registry import FORMATS, SUFFIXES, file_format
from graphrag_neo4j.indexing.input.loaders import load_documents
from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.settings import ChunkingSettings
from tests.office_files import docx_file, epub_file, pdf_bytes, pptx_file, xlsx_file

MANUAL_PAGE = """<html><head><title>Upgrading packages</title></head><body>
<div class="navheader"><a href="ch01.html">Prev</a> Chapter 2 <a href="ch03.html">Next</a></div>
<nav><a href="index.html">Home</a></nav>
<h1>Install</h1><p>Run the installer once.</p>
<h2>Upgrading</h2><p>Press <a href="keys.html">u</a> to update the package list,
then <b>g</b> to upgrade every package that has a newer version.</p>
<table><tr><th>Key</th><th>Action</th></tr><tr><td>u</td><td>update the list</td></tr></table>
<div class="navfooter"><a href="index.html">Home</a></div></body></html>"""


def _one(path: Path) -> Document:
    result = load_documents([path])
    assert not result.skipped, [skip.reason for skip in result.skipped]
    [document] = result.documents
    return document


def _sections(document: Document) -> list[str]:
    return [place.section for place in document.places]


def test_html_keeps_headings_and_tables_and_drops_navigation_and_links(tmp_path: Path) -> None:
    path = tmp_path / "upgrading.html"
    path.write_text(MANUAL_PAGE, encoding="utf-8")
    document = _one(path)
    assert document.title == "Upgrading packages"
    assert "# Install" in document.text and "## Upgrading" in document.text
    assert "| u | update the list |" in document.text
    assert "Prev" not in document.text and "Home" not in document.text
    assert "keys.html" not in document.text and "Press u to update" in document.text
    assert _sections(document) == ["Install", "Install > Upgrading"]


def test_word_headings_become_the_section_path_of_each_chunk(tmp_path: Path) -> None:
    path = docx_file(tmp_path / "guide.docx", [
        (1, "Install", "Run the installer once and accept the licence when it asks."),
        (2, "Upgrading", "Press u to update the package list, then g to upgrade them all."),
        (1, "Removing", "Press minus on a package to remove it, then g to apply."),
    ])
    document = _one(path)
    assert _sections(document) == ["Install", "Install > Upgrading", "Removing"]
    assert "| upgrade | installs newer versions |" in document.text
    chunks = chunk_document(document, ChunkingSettings(size=16, overlap=0))
    headings = [(m.start(), m.group(1)) for m in re.finditer(r"^#+ (.+)$", document.text, re.M)]
    for chunk in chunks:  # the section a chunk cites is the one its text starts in
        assert chunk.char_start is not None
        above = [name for start, name in headings if start <= chunk.char_start]
        assert chunk.section.split(" > ")[-1] == above[-1], chunk
        assert chunk.pages is None
    assert "Install > Upgrading" in {chunk.section for chunk in chunks}


def test_slides_are_pages(tmp_path: Path) -> None:
    path = pptx_file(tmp_path / "talk.pptx", [
        ("Why graphs", "Entities and relations connect facts across documents."),
        ("How to index", "Run graphrag-neo4j index on a folder of files."),
    ])
    document = _one(path)
    assert "Slide number" not in document.text
    chunks = chunk_document(document, ChunkingSettings(size=12, overlap=0))
    second = next(c for c in chunks if "folder of files" in c.text)
    assert second.pages == (2, 2) and second.section == "How to index"
    assert chunks[0].pages == (1, 1)


def test_excel_sheets_and_epub_chapters_are_sections(tmp_path: Path) -> None:
    book = _one(xlsx_file(tmp_path / "prices.xlsx", {"Fruit": [("name", "price"),
                                                               ("apple", "3")]}))
    assert _sections(book) == ["Fruit"] and "| apple | 3 |" in book.text
    novel = _one(epub_file(tmp_path / "book.epub", [("Stave One", "Marley was dead."),
                                                    ("Stave Two", "The first spirit came.")]))
    assert "Marley was dead." in novel.text
    assert {"Stave One", "Stave Two"} <= {p.section.split(" > ")[-1] for p in novel.places}


def test_pdf_chunks_know_their_pages_and_spans(tmp_path: Path) -> None:
    pages = ["Alpha page text about installing.", "Beta page text about upgrading.",
             "Gamma page text about removing."]
    path = tmp_path / "manual.pdf"
    path.write_bytes(pdf_bytes(pages))
    document = _one(path)
    chunks = chunk_document(document, ChunkingSettings(size=8, overlap=0))
    for chunk in chunks:
        assert document.text[chunk.char_start : chunk.char_end] == chunk.text
        assert chunk.pages is not None
        first, last = chunk.pages
        assert chunk.text in "\n\n".join(pages[first - 1 : last])
    assert {n for c in chunks if c.pages for n in range(c.pages[0], c.pages[1] + 1)} == {1, 2, 3}


def test_unreadable_files_are_refused_one_by_one_with_a_reason(tmp_path: Path) -> None:
    (tmp_path / "locked.docx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512)
    (tmp_path / "broken.pptx").write_bytes(b"PK\x03\x04 not really a zip")
    (tmp_path / "scanned.pdf").write_bytes(pdf_bytes(["", ""]))
    (tmp_path / "style.css").write_text("body { color: red }", encoding="utf-8")
    (tmp_path / "fine.html").write_text("<h1>Fine</h1><p>Readable.</p>", encoding="utf-8")
    result = load_documents([tmp_path])
    assert [d.title for d in result.documents] == ["Fine"]
    reasons = {skip.path.name: skip.reason for skip in result.skipped}
    assert "password-protected" in reasons["locked.docx"]
    assert "cannot be read as PowerPoint" in reasons["broken.pptx"]
    assert "no extractable text" in reasons["scanned.pdf"]
    assert "not a format the indexer reads" in reasons["style.css"]
    assert all("Traceback" not in reason and len(reason) < 400 for reason in reasons.values())


def test_one_list_of_formats() -> None:
    assert {".html", ".docx", ".pptx", ".xlsx", ".epub", ".pdf", ".md", ".csv"} <= SUFFIXES
    assert file_format("A.HTML") is file_format("a.html") is not None
    assert file_format("style.css") is None
    assert len(SUFFIXES) == sum(len(f.suffixes) for f in FORMATS)  # no suffix listed twice
