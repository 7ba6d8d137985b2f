"""A text's language is detected once per cache folder; a changed text is detected again."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.indexing.input import language_cache
from graphrag_neo4j.indexing.input.language import Language, detect_language
from graphrag_neo4j.indexing.records import Document

ENGLISH = "Marley was dead, to begin with. There is no doubt whatever about that at all."
GERMAN = "Marley war tot, damit wollen wir anfangen. Darüber besteht gar kein Zweifel."


def _documents(*texts: str) -> list[Document]:
    return [Document(f"d{n}", "t", "s", text) for n, text in enumerate(texts)]


def test_a_second_run_reads_the_languages_without_detecting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = language_cache.document_languages(_documents(ENGLISH, GERMAN), tmp_path)
    assert first == {"d0": detect_language(ENGLISH), "d1": detect_language(GERMAN)}
    assert [first["d0"].code, first["d1"].code] == ["en", "de"]

    def refuse(text: str) -> Language:
        raise AssertionError(f"detected again: {text[:20]}")

    monkeypatch.setattr(language_cache, "detect_language", refuse)
    assert language_cache.document_languages(_documents(ENGLISH, GERMAN), tmp_path) == first


def test_only_a_text_not_seen_before_is_detected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    language_cache.document_languages(_documents(ENGLISH), tmp_path)
    seen: list[str] = []

    def detect(text: str) -> Language:
        seen.append(text)
        return detect_language(text)

    monkeypatch.setattr(language_cache, "detect_language", detect)
    found = language_cache.document_languages(_documents(ENGLISH, GERMAN), tmp_path)
    assert seen == [GERMAN] and found["d1"].code == "de"
