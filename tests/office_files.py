"""Small files of every format the indexer reads, made in the test: PDF pages (by hand), Word,
PowerPoint and Excel (python-docx, python-pptx, openpyxl) and EPUB (a zip by hand)."""

from __future__ import annotations

import zipfile
from pathlib import Path


def pdf_bytes(pages: list[str], title: str | None = None) -> bytes:
    """A minimal but valid PDF whose pages show the given lines in Helvetica."""
    n_pages = len(pages)
    kids = " ".join(f"{4 + 2 * index} 0 R" for index in range(n_pages))
    bodies = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for index, text in enumerate(pages):
        escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        stream = f"BT /F1 12 Tf 72 720 Td ({escaped}) Tj ET".encode() if text else b""
        bodies.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
            f"<< /Font << /F1 3 0 R >> >> /Contents {5 + 2 * index} 0 R >>".encode()
        )
        bodies.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    if title is not None:
        bodies.append(f"<< /Title ({title}) >>".encode())
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(bodies, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    info = f" /Info {len(bodies)} 0 R" if title is not None else ""
    out += f"trailer\n<< /Size {len(bodies) + 1} /Root 1 0 R{info} >>\n".encode()
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def docx_file(path: Path, sections: list[tuple[int, str, str]]) -> Path:
    """A Word file: (heading level, heading, paragraph) per section, and one table."""
    import docx

    document = docx.Document()
    for level, heading, paragraph in sections:
        document.add_heading(heading, level=level)
        document.add_paragraph(paragraph)
    table = document.add_table(rows=2, cols=2)
    for row, cells in enumerate((("Command", "Effect"), ("upgrade", "installs newer versions"))):
        for column, text in enumerate(cells):
            table.cell(row, column).text = text
    document.save(str(path))
    return path


def pptx_file(path: Path, slides: list[tuple[str, str]]) -> Path:
    """A PowerPoint file: one (title, body) slide each."""
    import pptx

    deck = pptx.Presentation()
    for title, body in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
    deck.save(str(path))
    return path


def xlsx_file(path: Path, sheets: dict[str, list[tuple[str, str]]]) -> Path:
    """An Excel file: one sheet per name with its rows."""
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(list(row))
    book.save(str(path))
    return path


def epub_file(path: Path, chapters: list[tuple[str, str]]) -> Path:
    """An EPUB 3 book: one (heading, paragraph) XHTML chapter each, in spine order."""
    items = "".join(f'<item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>'
                    for i in range(len(chapters)))
    spine = "".join(f'<itemref idref="c{i}"/>' for i in range(len(chapters)))
    with zipfile.ZipFile(path, "w") as book:
        book.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        book.writestr("META-INF/container.xml",
                      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:'
                      'opendocument:xmlns:container"><rootfiles><rootfile full-path="book.opf" '
                      'media-type="application/oebps-package+xml"/></rootfiles></container>')
        book.writestr("book.opf",
                      '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" '
                      'version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
                      f'<dc:title>Test Book</dc:title></metadata><manifest>{items}</manifest>'
                      f'<spine>{spine}</spine></package>')
        for i, (heading, paragraph) in enumerate(chapters):
            book.writestr(f"c{i}.xhtml",
                          '<html xmlns="http://www.w3.org/1999/xhtml"><body>'
                          f"<h1>{heading}</h1><p>{paragraph}</p></body></html>")
    return path
