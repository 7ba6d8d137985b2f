"""Which documents a run indexes, and where a half-written one resumes."""

from __future__ import annotations

from graphrag_neo4j.indexing.input.changes import WrittenPart, documents_to_index, resume_points
from graphrag_neo4j.indexing.records import Chunk, Document


def _document(doc_id: str, text: str = "x") -> Document:
    return Document(doc_id, doc_id, "s", text)


def _row(document: Document, complete: bool, chunks: int = 0,
         last: str | None = None) -> dict[str, object]:
    return {"id": document.id, "content_hash": document.content_hash, "complete": complete,
            "indexed_chunks": chunks, "last_chunk_id": last}


def test_new_changed_half_written_and_unchanged_documents_are_told_apart() -> None:
    new, same, changed, half, unmarked = (_document(n) for n in ("a", "b", "c", "d", "e"))
    stored = {"b": _row(same, True), "c": _row(_document("c", "old text"), True),
              "d": _row(half, False, 4, "d-3"), "e": _row(unmarked, False)}
    changes = documents_to_index([new, same, changed, half, unmarked], stored)
    assert [d.id for d in changes.todo] == ["a", "c", "d", "e"]
    assert changes.unchanged == 1 and changes.changed == ["c"]
    assert changes.cleared == ["c", "d", "e"]
    assert changes.written == {"d": WrittenPart(4, "d-3")}


def test_a_half_written_document_resumes_only_if_cut_into_the_same_chunks() -> None:
    chunks = {doc: [Chunk(f"{doc}-{k}", doc, "x", k, 1) for k in range(6)] for doc in "abc"}
    written = {"a": WrittenPart(4, "a-3"), "b": WrittenPart(4, "other-chunking"),
               "c": WrittenPart(9, "c-8")}
    assert resume_points(written, chunks) == {"a": 4}


def test_an_unchanged_document_without_chunk_places_is_kept_but_placed() -> None:
    placed, unplaced = _document("p"), _document("u")
    stored = {"p": {**_row(placed, True), "places_missing": False},
              "u": {**_row(unplaced, True), "places_missing": True}}
    changes = documents_to_index([placed, unplaced], stored)
    assert changes.todo == [] and changes.unchanged == 2
    assert changes.unplaced == [unplaced]
