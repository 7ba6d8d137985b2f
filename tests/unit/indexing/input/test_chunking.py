"""Sliding-window chunking: sizes, overlap, coverage, snapping, ids, CJK, validation."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from graphrag_neo4j.database.content_ids import content_id
from graphrag_neo4j.indexing.input.chunking import (
    CLAUSE,
    LINE,
    PARAGRAPH,
    SENTENCE,
    WORD,
    boundary_rank,
    chunk_document,
    text_after_overlap,
    texts_read_once,
)
from graphrag_neo4j.indexing.records import Chunk, Document
from graphrag_neo4j.llm.tokens.counting import count_tokens, get_encoding
from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.settings import ChunkingSettings

TOKENS = ChunkingSettings()
CHARS = ChunkingSettings(unit="chars", size=300, overlap=50)
_WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
]


def _document(text: str, doc_id: str = "doc-1") -> Document:
    return Document(id=doc_id, title="t", source="s", text=text)


def _prose(n_sentences: int, seed: int = 7) -> str:
    """Deterministic English-like sentences of 6 to 14 words, in paragraphs of five."""
    rng = random.Random(seed)
    sentences = []
    for index in range(n_sentences):
        words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 14))]
        sentence = " ".join(words).capitalize() + rng.choice(".!?")
        sentences.append(sentence + ("\n\n" if index % 5 == 4 else " "))
    return "".join(sentences)


def _spans(text: str, chunks: list[Chunk]) -> list[tuple[int, int]]:
    """Where each chunk sits in the text, found in order (each at or after the previous)."""
    spans, position = [], 0
    for chunk in chunks:
        start = text.find(chunk.text, position)
        assert start >= 0, f"chunk {chunk.chunk_index} is not in the text after the previous one"
        spans.append((start, start + len(chunk.text)))
        position = start + 1
    return spans


def _assert_covers(text: str, chunks: list[Chunk]) -> list[tuple[int, int]]:
    """Chunks are in order and leave out nothing but whitespace."""
    spans = _spans(text, chunks)
    assert text[: spans[0][0]].strip() == ""
    assert text[spans[-1][1] :].strip() == ""
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert text[end:start].strip() == "", "text between two chunks was lost"
    return spans


def test_encoding_is_real_cl100k_and_offline() -> None:
    # Known cl100k_base ids; the unit tests run without network, so this proves the offline copy.
    assert get_encoding("cl100k_base").encode("hello world") == [15339, 1917]
    assert count_tokens("hello world") == 2
    assert count_tokens("") == 0


def test_special_token_text_is_plain_text() -> None:
    assert count_tokens("a <|endoftext|> b") > 3
    assert chunk_document(_document("before <|endoftext|> after"), TOKENS)[0].text.endswith("after")


def test_unknown_encoding_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="no_such_encoding"):
        get_encoding("no_such_encoding")


def test_short_text_is_one_chunk() -> None:
    document = _document("  A short note. Nothing more.\n")
    [chunk] = chunk_document(document, TOKENS)
    assert chunk.text == "A short note. Nothing more."
    assert chunk.chunk_index == 0
    assert chunk.document_id == "doc-1"
    assert chunk.n_tokens == count_tokens(chunk.text)


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t\n"])
def test_empty_text_gives_no_chunks(text: str) -> None:
    assert chunk_document(_document(text), TOKENS) == []


def test_token_windows_respect_size_cover_text_and_overlap() -> None:
    text = _prose(400)
    settings = ChunkingSettings(size=200, overlap=30)
    chunks = chunk_document(_document(text), settings)
    assert len(chunks) > 10
    assert [chunk.chunk_index for chunk in chunks] == list(range(len(chunks)))
    assert all(0 < chunk.n_tokens <= 200 for chunk in chunks)
    assert all(chunk.n_tokens == count_tokens(chunk.text) for chunk in chunks)
    spans = _assert_covers(text, chunks)
    for (_, end), (start, _) in itertools.pairwise(spans):
        shared = count_tokens(text[start:end])
        assert 25 <= shared <= 40, f"neighbours share {shared} tokens, expected about 30"


def test_windows_end_at_sentence_ends_when_one_is_near() -> None:
    # Sentences here are at most ~20 tokens, well inside the 12% snap range of 200 tokens.
    chunks = chunk_document(_document(_prose(400)), ChunkingSettings(size=200, overlap=30))
    assert all(chunk.text[-1] in ".!?" for chunk in chunks)


def test_cut_moves_back_to_a_near_sentence_end() -> None:
    # 100-char windows snap within 12 chars; the only sentence end sits 9 chars before the limit.
    head = "word " * 18 + "end."  # 94 characters, the period at index 93
    text = head + " more words follow here without any stop at all " * 4
    first = chunk_document(_document(text), ChunkingSettings(unit="chars", size=100, overlap=0))[0]
    assert first.text == head
    far = "word " * 15 + "end." + " tail" * 40  # the period at index 78: outside the snap range
    first = chunk_document(_document(far), ChunkingSettings(unit="chars", size=100, overlap=0))[0]
    assert first.text.endswith(" tail") and len(first.text) > 90


def test_snapping_never_splits_words() -> None:
    rng = random.Random(3)
    text = " ".join(rng.choice(_WORDS) for _ in range(3000))  # no punctuation at all
    for settings in (ChunkingSettings(size=100, overlap=20), CHARS):
        for chunk in chunk_document(_document(text), settings):
            assert set(chunk.text.split()) <= set(_WORDS)


def test_overlap_starts_at_a_word_start() -> None:
    text = _prose(300)
    for settings in (ChunkingSettings(size=150, overlap=40), CHARS):
        chunks = chunk_document(_document(text), settings)
        spans = _spans(text, chunks)
        for start, _ in spans[1:]:
            assert start == 0 or text[start - 1].isspace()


def test_chars_mode_300_50() -> None:
    text = _prose(200)
    chunks = chunk_document(_document(text), CHARS)
    assert len(chunks) > 20
    assert all(len(chunk.text) <= 300 for chunk in chunks)
    assert all(chunk.n_tokens == count_tokens(chunk.text) for chunk in chunks)
    spans = _assert_covers(text, chunks)
    shared = [end - start for (_, end), (start, _) in itertools.pairwise(spans)]
    assert all(40 <= value <= 90 for value in shared), shared
    assert sum(shared) / len(shared) == pytest.approx(50, abs=10)


def test_text_without_any_space_is_cut_hard_and_fully_covered() -> None:
    text = "x" * 1000
    chunks = chunk_document(_document(text), CHARS)
    assert [len(chunk.text) for chunk in chunks] == [300, 300, 300, 250]
    assert "".join(chunk.text[50:] if chunk.chunk_index else chunk.text for chunk in chunks) == text


def test_long_whitespace_runs_give_no_empty_chunks() -> None:
    words = " ".join(f"w{index}" for index in range(400))
    text = "Start here." + " " * 5000 + "\n" * 3000 + "End there. " + words + "\n" * 900
    for settings in (ChunkingSettings(size=50, overlap=10), CHARS):
        chunks = chunk_document(_document(text), settings)
        assert all(chunk.text.strip() == chunk.text != "" for chunk in chunks)
        _assert_covers(text, chunks)
        assert chunks[-1].text.endswith("w399")


def test_ids_are_stable_and_content_addressed() -> None:
    text = _prose(200)
    first = chunk_document(_document(text), ChunkingSettings(size=120, overlap=20))
    again = chunk_document(_document(text), ChunkingSettings(size=120, overlap=20))
    assert [chunk.id for chunk in first] == [chunk.id for chunk in again]
    assert len({chunk.id for chunk in first}) == len(first)
    for chunk in first:
        assert chunk.id == content_id("chunk", "doc-1", str(chunk.chunk_index), chunk.text)
    other = chunk_document(_document(text, "doc-2"), ChunkingSettings(size=120, overlap=20))
    assert not {chunk.id for chunk in first} & {chunk.id for chunk in other}


def test_cjk_text_without_spaces() -> None:
    sentences = [
        "我们今天去公园散步。",
        "天气很好，阳光明媚！",
        "你想一起来吗？",
        "東京は日本の首都です。",
    ]
    # Numbered so that every chunk's text occurs once and its place can be checked.
    text = "".join(f"第{index}句{sentences[index % 4]}" for index in range(300))
    token_settings = ChunkingSettings(size=200, overlap=20)
    for settings in (token_settings, ChunkingSettings(unit="chars", size=200, overlap=20)):
        chunks = chunk_document(_document(text), settings)
        assert len(chunks) > 5
        assert all("\ufffd" not in chunk.text for chunk in chunks)  # no split characters
        assert all(chunk.text[-1] in "。！？" for chunk in chunks)  # snapped to sentence ends
        _assert_covers(text, chunks)
        if settings.unit == "tokens":
            assert all(chunk.n_tokens <= 200 for chunk in chunks)


def test_emoji_and_accents_survive_token_windows() -> None:
    text = " ".join(f"Café {index} 🙂 naïve résumé." for index in range(400))
    chunks = chunk_document(_document(text), ChunkingSettings(size=60, overlap=10))
    assert all("\ufffd" not in chunk.text and chunk.n_tokens <= 60 for chunk in chunks)
    _assert_covers(text, chunks)


@pytest.mark.parametrize(
    ("text", "position", "rank"),
    [
        ("One. Two", 4, SENTENCE),
        ("One. Two", 5, SENTENCE),
        ("He said “no.” Then", 13, SENTENCE),
        ("Title\n\nBody", 6, PARAGRAPH),
        ("line one\nline two", 9, LINE),
        ("two words", 4, WORD),
        ("first, second", 6, CLAUSE),
        ("好，阳", 2, CLAUSE),
        ("Mr. Scrooge", 3, WORD),  # an abbreviation is not a sentence end
        ("J. R. R. Tolkien", 2, WORD),  # nor an initial
        ("我们。天气", 3, SENTENCE),
        ("我们天气", 2, WORD),
    ],
)
def test_boundary_rank(text: str, position: int, rank: int) -> None:
    assert boundary_rank(text, position) == rank


def test_boundary_inside_a_word_ranks_lowest() -> None:
    assert boundary_rank("inside", 3) < WORD


@pytest.mark.parametrize(("size", "overlap"), [(0, 0), (100, 100), (100, -1), (10, 50)])
def test_invalid_window_settings_are_config_errors(size: int, overlap: int) -> None:
    with pytest.raises(ConfigError, match="chunking"):
        chunk_document(_document("text"), ChunkingSettings(size=size, overlap=overlap))


def test_christmas_carol_default_and_chars_windows(shared_data: Path) -> None:
    text = (shared_data / "christmas_carol" / "book.txt").read_text(encoding="utf-8")
    document = _document(text, "christmas-carol")
    chunks = chunk_document(document, TOKENS)
    assert 35 <= len(chunks) <= 50
    assert all(chunk.n_tokens <= 1200 for chunk in chunks)
    spans = _assert_covers(text, chunks)
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert 90 <= count_tokens(text[start:end]) <= 120
    # Every window but the last found a sentence end (the text is prose with short sentences).
    assert all(re.search(r"[.!?][\"'’”_\]]*$", chunk.text) for chunk in chunks[:-1])
    char_chunks = chunk_document(document, CHARS)
    assert all(len(chunk.text) <= 300 for chunk in char_chunks)
    _assert_covers(text, char_chunks)


@pytest.mark.parametrize("settings", [ChunkingSettings(size=200, overlap=30), CHARS])
def test_text_after_overlap_reads_every_word_once(settings: ChunkingSettings) -> None:
    text = _prose(300)
    chunks = chunk_document(_document(text), settings)
    pieces = texts_read_once(chunks)
    assert " ".join(pieces).split() == text.split()
    assert all(len(p) < len(c.text) for p, c in zip(pieces[1:], chunks[1:], strict=True))


def test_text_after_overlap_needs_the_same_documents_window_before() -> None:
    text, settings = _prose(300), ChunkingSettings(size=200, overlap=30)
    first, second, third = chunk_document(_document(text), settings)[:3]
    other = chunk_document(_document(text, "doc-2"), settings)[1]
    assert text_after_overlap(None, second) == second.text
    assert text_after_overlap(first, third) == third.text  # not neighbours
    assert text_after_overlap(first, other) == other.text  # another document
    assert text_after_overlap(first, second) != second.text


def test_text_after_overlap_keeps_a_window_that_shares_nothing() -> None:
    before = Chunk("c0", "d", "Alpha bravo charlie delta echo foxtrot.", 0, 8)
    after = Chunk("c1", "d", "Golf hotel india juliet kilo lima mike.", 1, 8)
    assert text_after_overlap(before, after) == after.text


def test_no_chunks_read_once_is_no_text() -> None:
    # A fast batch whose every document was refused (another language) parses no chunk.
    from graphrag_neo4j.indexing.input.chunking import texts_read_once

    assert texts_read_once([]) == []
