"""Loading text, Markdown, PDF, JSON, JSONL and CSV inputs, and skipping bad ones with a reason."""

from __future__ import annotations

import codecs
import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from graphrag_neo4j.database.content_ids import content_id
from graphrag_neo4j.indexing.input.loaders import (
    MAX_WARNINGS_PER_FILE,
    LoadResult,
    load_documents,
    read_text,
    title_from_text,
)
from graphrag_neo4j.runtime.errors import InputError
from tests.office_files import pdf_bytes


def _write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _reasons(result: LoadResult) -> str:
    return "\n".join(skip.reason for skip in result.skipped)


def test_plain_text_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "notes.txt", "# Not a heading for .txt\nSome text.\n")
    [document] = load_documents([path]).documents
    assert document.title == "notes"
    assert document.source == str(path)
    assert document.text == "# Not a heading for .txt\nSome text.\n"
    assert document.id == content_id("document", document.text)


@pytest.mark.parametrize(
    ("content", "title"),
    [
        ("Intro line\n\n## The Real Title ##\n\ntext", "The Real Title"),
        ('---\ntitle: "From Front Matter"\ndate: 2024\n---\n# Heading\n', "From Front Matter"),
        ("no heading at all, just text", "readme"),
    ],
)
def test_markdown_title(tmp_path: Path, content: str, title: str) -> None:
    [document] = load_documents([_write(tmp_path / "readme.md", content)]).documents
    assert document.title == title


def test_same_text_is_the_same_document_whatever_the_newlines(tmp_path: Path) -> None:
    unix = load_documents([_write(tmp_path / "a.txt", b"one\ntwo\n")]).documents[0]
    windows = load_documents([_write(tmp_path / "b.txt", b"one\r\ntwo\r\n")]).documents[0]
    assert windows.text == "one\ntwo\n"
    assert windows.id == unix.id


def test_byte_order_marks(tmp_path: Path) -> None:
    utf8 = _write(tmp_path / "bom8.txt", codecs.BOM_UTF8 + "Grüße".encode())
    utf16 = _write(tmp_path / "bom16.txt", "Grüße aus Köln".encode("utf-16"))
    result = load_documents([utf8, utf16])
    assert [document.text for document in result.documents] == ["Grüße", "Grüße aus Köln"]
    assert result.skipped == []


def test_folder_is_walked_sorted_and_hidden_entries_skipped(tmp_path: Path) -> None:
    _write(tmp_path / "b.txt", "bee")
    _write(tmp_path / "a" / "z.md", "zed")
    _write(tmp_path / "a" / "c.txt", "sea")
    _write(tmp_path / "a-file.txt", "dash")
    _write(tmp_path / ".hidden.txt", "secret")
    _write(tmp_path / ".git" / "config.txt", "git stuff")
    _write(tmp_path / "a" / ".cache" / "x.txt", "cached")
    result = load_documents([tmp_path])
    assert [document.text for document in result.documents] == ["sea", "zed", "dash", "bee"]
    assert result.skipped == []


def test_explicit_hidden_file_and_duplicates_are_read_once(tmp_path: Path) -> None:
    hidden = _write(tmp_path / ".notes.txt", "hidden but asked for")
    other = _write(tmp_path / "x.txt", "x")
    result = load_documents([hidden, other, tmp_path])
    assert [document.text for document in result.documents] == ["hidden but asked for", "x"]


def test_missing_path_raises_naming_it(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.txt"):
        load_documents([tmp_path / "nope.txt"])


def test_bad_files_are_skipped_with_a_named_reason(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _write(tmp_path / "binary.txt", b"abc\x00def")
    _write(tmp_path / "image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    _write(tmp_path / "latin1.md", "café".encode("latin-1"))
    _write(tmp_path / "empty.txt", "")
    _write(tmp_path / "blank.md", " \n\t\n")
    _write(tmp_path / "good.txt", "fine")
    with caplog.at_level(logging.WARNING, logger="graphrag_neo4j.indexing.input.loaders"):
        result = load_documents([tmp_path])
    assert [document.text for document in result.documents] == ["fine"]
    reasons = {skip.path.name: skip.reason for skip in result.skipped}
    assert set(reasons) == {"binary.txt", "image.png", "latin1.md", "empty.txt", "blank.md"}
    assert "NUL bytes" in reasons["binary.txt"]
    assert ".png is not a format the indexer reads" in reasons["image.png"]
    assert "not valid UTF-8" in reasons["latin1.md"] and "0xe9" in reasons["latin1.md"]
    assert "is empty" in reasons["empty.txt"] and "is empty" in reasons["blank.md"]
    for name, reason in reasons.items():
        assert str(tmp_path / name) in reason
    assert len(caplog.records) == 5
    assert all(record.levelno == logging.WARNING for record in caplog.records)


def test_broken_symlink_in_a_folder_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "gone.txt")
    (tmp_path / "dangling.bin").symlink_to(tmp_path / "gone.bin")
    _write(tmp_path / "ok.txt", "ok")
    result = load_documents([tmp_path])
    assert [document.text for document in result.documents] == ["ok"]
    assert [skip.path.name for skip in result.skipped] == ["dangling.bin", "dangling.txt"]
    assert "not a format the indexer reads" in result.skipped[0].reason
    assert "cannot be read" in result.skipped[1].reason


def test_a_text_file_of_an_unread_format_is_refused_with_the_reason(tmp_path: Path) -> None:
    """reStructuredText, CSS and XML are text, but indexed as they are their markup fills
    every chunk: they are refused, one reason each, and counted, as the HTTP API does."""
    for name in ("guide.rst", "style.css", "data.xml", "README"):
        _write(tmp_path / name, "Guide\n=====\n")
    result = load_documents([tmp_path])
    assert result.documents == []
    reasons = {skip.path.name: skip.reason for skip in result.skipped}
    assert set(reasons) == {"guide.rst", "style.css", "data.xml", "README"}
    assert all("not a format the indexer reads" in reason for reason in reasons.values())
    assert ".css is not" in reasons["style.css"] and "without extension" in reasons["README"]


def test_oversized_file_is_skipped(tmp_path: Path) -> None:
    path = _write(tmp_path / "big.txt", "x" * 2000)
    result = load_documents([path], max_bytes=1000)
    assert result.documents == []
    assert "limit" in result.skipped[0].reason and "split" in result.skipped[0].reason


def test_json_list_with_ids_titles_and_bad_records(tmp_path: Path) -> None:
    records = [
        {"id": "musique-0000", "title": "Same", "text": "first"},
        {"id": "musique-0001", "title": "Same", "text": "second"},
        {"title": "No text here"},
        "not an object",
        {"text": "  "},
        {"text": "no id", "id": None},
        {"id": 7, "text": "numeric id"},
    ]
    path = _write(tmp_path / "data.json", json.dumps(records))
    result = load_documents([path])
    documents = result.documents
    assert [document.id for document in documents] == [
        "musique-0000",
        "musique-0001",
        content_id("document", "no id"),
        "7",
    ]
    assert [document.title for document in documents[:2]] == ["Same", "Same"]
    assert documents[0].source == f"{path}#musique-0000"
    assert documents[2].source == f"{path}#5"
    assert documents[2].title == "no id"  # untitled records are titled by their text
    reasons = _reasons(result)
    assert f"{path} record 2 has no 'text' field" in reasons
    assert "record 3 is a str" in reasons
    assert "record 4 has an empty or non-text 'text' field" in reasons
    assert "extraction.text_field" in reasons


def test_json_object_with_a_list_under_a_key(tmp_path: Path) -> None:
    data = {"source": "somewhere", "items": [{"body": "one", "name": "One", "key": "k1"}]}
    path = _write(tmp_path / "wrapped.json", json.dumps(data))
    result = load_documents([path], text_field="body", title_field="name", id_field="key")
    [document] = result.documents
    assert (document.id, document.title, document.text) == ("k1", "One", "one")


def test_json_single_object_is_one_record(tmp_path: Path) -> None:
    path = _write(tmp_path / "one.json", json.dumps({"text": "alone", "title": "Solo"}))
    [document] = load_documents([path]).documents
    assert document.title == "Solo" and document.source == f"{path}#0"


def test_wrong_text_field_gives_one_message_for_the_file(shared_data: Path) -> None:
    nano = shared_data / "milvus_nano" / "nano_dataset.json"
    result = load_documents([nano])
    assert result.documents == []
    [skip] = result.skipped
    assert "none of its 4 records has a 'text' field (fields: passage, triplets)" in skip.reason
    passages = load_documents([nano], text_field="passage").documents
    assert len(passages) == 4 and passages[3].text.startswith("Leonhard Euler")


def test_invalid_json_is_skipped_with_position(tmp_path: Path) -> None:
    path = _write(tmp_path / "broken.json", '[{"text": "a"},\n {"text": }]')
    result = load_documents([path])
    assert result.documents == []
    assert "is not valid JSON (line 2, column" in result.skipped[0].reason


@pytest.mark.parametrize("payload", ['"just a string"', "42"])
def test_json_scalar_is_skipped(tmp_path: Path, payload: str) -> None:
    result = load_documents([_write(tmp_path / "scalar.json", payload)])
    assert "expected a list of objects" in result.skipped[0].reason


def test_jsonl_skips_bad_lines_and_keeps_the_rest(tmp_path: Path) -> None:
    lines = [
        json.dumps({"id": "a", "text": "alpha"}),
        "",
        "{not json",
        "[1, 2]",
        json.dumps({"id": "b", "text": "beta", "title": "B"}),
        json.dumps({"id": "a", "text": "alpha again"}),
    ]
    path = _write(tmp_path / "rows.jsonl", "\n".join(lines) + "\n")
    result = load_documents([path])
    assert [(document.id, document.title) for document in result.documents] == [
        ("a", "alpha"),
        ("b", "B"),
    ]
    reasons = _reasons(result)
    assert f"{path} line 3 is not valid JSON" in reasons
    assert f"{path} line 4 holds a list" in reasons
    assert "has the same id 'a'" in reasons


def test_many_bad_records_are_summarised(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    good = json.dumps({"text": "ok"})
    path = _write(tmp_path / "noisy.jsonl", "\n".join([good] + ["{bad"] * 20))
    with caplog.at_level(logging.WARNING, logger="graphrag_neo4j.indexing.input.loaders"):
        result = load_documents([path])
    assert len(result.documents) == 1
    assert len(result.skipped) == MAX_WARNINGS_PER_FILE + 1
    assert "15 more records were skipped" in result.skipped[-1].reason
    assert len(caplog.records) == MAX_WARNINGS_PER_FILE + 1


def test_csv_with_text_title_and_id_columns(tmp_path: Path) -> None:
    content = (
        'id,title,text,extra\nr1,First,"multi\nline, with comma",x\nr2,,second,y\nr3,Third,,z\n'
    )
    path = _write(tmp_path / "table.csv", content)
    result = load_documents([path])
    assert [(document.id, document.title) for document in result.documents] == [
        ("r1", "First"),
        ("r2", "second"),
    ]
    assert result.documents[0].text == "multi\nline, with comma"
    assert result.documents[0].source == f"{path}#r1"
    assert "has an empty or non-text 'text' field" in result.skipped[0].reason


def test_csv_long_field_and_tsv(tmp_path: Path) -> None:
    long_text = "word " * 60_000  # over the csv module's default 128 KB field limit
    csv_path = _write(tmp_path / "long.csv", f'text\n"{long_text}"\n')
    tsv_path = _write(tmp_path / "tabs.tsv", "title\ttext\nT\tTab separated\n")
    result = load_documents([csv_path, tsv_path])
    assert [len(document.text) for document in result.documents] == [len(long_text), 13]
    assert result.documents[1].title == "T"


def test_csv_without_the_text_column(tmp_path: Path) -> None:
    path = _write(tmp_path / "wrong.csv", "body\none\ntwo\n")
    [skip] = load_documents([path]).skipped
    assert "none of its 2 records has a 'text' field (fields: body)" in skip.reason


def test_same_text_in_two_files_is_loaded_once(tmp_path: Path) -> None:
    first = _write(tmp_path / "a.txt", "same words")
    second = _write(tmp_path / "b.md", "same words")
    result = load_documents([tmp_path])
    assert [document.source for document in result.documents] == [str(first)]
    assert f"{second} has the same id" in result.skipped[0].reason


def test_pdf_pages_are_joined(tmp_path: Path) -> None:
    pages = ["First page (one).", "Second page."]
    path = _write(tmp_path / "paper.pdf", pdf_bytes(pages, "A Title"))
    [document] = load_documents([path]).documents
    assert document.title == "A Title"
    assert document.text == "First page (one).\n\nSecond page."
    untitled = _write(tmp_path / "untitled.pdf", pdf_bytes(["Only page."]))
    assert load_documents([untitled]).documents[0].title == "untitled"


def test_bad_pdfs_are_skipped(tmp_path: Path) -> None:
    _write(tmp_path / "garbage.pdf", b"this is not a pdf at all")
    _write(tmp_path / "scanned.pdf", pdf_bytes([""]))
    result = load_documents([tmp_path])
    assert result.documents == []
    reasons = {skip.path.name: skip.reason for skip in result.skipped}
    assert "cannot be read as PDF" in reasons["garbage.pdf"]
    assert "no extractable text" in reasons["scanned.pdf"]


def test_read_text_raises_input_error_for_binary(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="NUL bytes"):
        read_text(_write(tmp_path / "x.bin", b"\x00\x01"))


def test_title_from_text() -> None:
    assert title_from_text("  Hello\n\n  world  ") == "Hello world"
    assert title_from_text("x" * 100) == "x" * 60
    assert title_from_text("word " * 30, limit=12) == "word word wo"


def test_musique_corpus_keeps_ids_although_titles_repeat(shared_data: Path) -> None:
    result = load_documents([shared_data / "musique" / "corpus.jsonl"])
    assert len(result.documents) == 1890 and result.skipped == []
    assert result.documents[0].id == "musique-0000"
    assert len({document.id for document in result.documents}) == 1890
    assert len({document.title for document in result.documents}) < 1890


def test_christmas_carol_is_one_document(shared_data: Path) -> None:
    result = load_documents([shared_data / "christmas_carol"])
    [document] = result.documents
    assert document.title == "book" and "Scrooge" in document.text


def test_a_folder_walk_does_not_follow_links_out_of_the_folder(tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("Outside the folder.", encoding="utf-8")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("Inside the folder.", encoding="utf-8")
    (folder / "link.txt").symlink_to(outside)
    (folder / "inner.txt").symlink_to(folder / "a.txt")  # stays inside: read once
    result = load_documents([folder])
    assert [d.text for d in result.documents] == ["Inside the folder."]
    (skipped,) = result.skipped
    assert "links outside" in skipped.reason and "--follow-links" in skipped.reason
    followed = load_documents([folder], follow_links=True)
    assert sorted(d.text for d in followed.documents) == [
        "Inside the folder.", "Outside the folder."
    ]


def test_a_linked_folder_is_not_walked_unless_asked(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "b.txt").write_text("Elsewhere.", encoding="utf-8")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("Here.", encoding="utf-8")
    (folder / "sub").symlink_to(elsewhere, target_is_directory=True)
    assert [d.text for d in load_documents([folder]).documents] == ["Here."]
    followed = load_documents([folder], follow_links=True).documents
    assert sorted(d.text for d in followed) == ["Elsewhere.", "Here."]


def test_an_explicit_file_argument_is_read_even_through_a_link(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("Named on purpose.", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(target)
    assert [d.text for d in load_documents([tmp_path / "link.txt"]).documents] == [
        "Named on purpose."
    ]


def test_links_back_up_the_folder_are_walked_once(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.txt").write_text("Top.", encoding="utf-8")
    (folder / "sub" / "b.txt").write_text("Below.", encoding="utf-8")
    (folder / "loop").symlink_to(folder, target_is_directory=True)
    (folder / "sub" / "up").symlink_to(folder, target_is_directory=True)
    # In a child process: a walk that loops must fail the test, not hang it.
    script = ("import sys; from pathlib import Path; from graphrag_neo4j.indexing.input.loaders"
              " import load_documents; docs = load_documents([Path(sys.argv[1])],"
              " follow_links=True).documents; print(sorted(d.text for d in docs))")
    run = subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "['Below.', 'Top.']"


@pytest.mark.parametrize("raw", [{"nested": 1}, [1, 2], 1.5, True])
def test_an_id_that_is_no_text_or_number_refuses_the_record(tmp_path: Path, raw: object) -> None:
    path = tmp_path / "records.jsonl"
    lines = [{"id": raw, "text": "Odd id."}, {"id": "fine", "text": "Good id."}]
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    result = load_documents([path])
    assert [d.id for d in result.documents] == ["fine"]
    (skipped,) = result.skipped
    assert "in its 'id' field" in skipped.reason and "whole number" in skipped.reason
