"""The parse cache: an unchanged text is not parsed again; a changed one, or a new parser, is."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from graphrag_neo4j.indexing.extraction.fast import parse_cache, parsing
from graphrag_neo4j.indexing.extraction.fast.extraction import extract_fast
from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline
from graphrag_neo4j.indexing.extraction.fast.parse_cache import ParseCache
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction
from graphrag_neo4j.settings import FastExtractionSettings

if TYPE_CHECKING:
    from spacy.language import Language

SETTINGS = FastExtractionSettings(min_concept_frequency=1, hub_degree_percentile=100)
TEXTS = ["Ebenezer Scrooge ran a counting-house in London with his clerk Bob Cratchit.",
         "Bob Cratchit went home to Camden Town with Tiny Tim.",
         "Fred invited his uncle Scrooge to dinner on Christmas Day."]


def _run(texts: list[str], cache_dir: Path, parsed: list[str],
         settings: FastExtractionSettings = SETTINGS,
         load: Callable[[], Language] = load_pipeline) -> list[ChunkExtraction]:
    chunks = [Chunk(f"c{i}", "d1", text, i, 20) for i, text in enumerate(texts)]
    cache = ParseCache(cache_dir, settings)
    try:
        return extract_fast(load, chunks, settings, cache=cache)
    finally:
        cache.close()


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts spaCy parses, in order."""
    seen: list[str] = []
    real = parsing._parse

    def spy(nlp, settings, batch):  # type: ignore[no-untyped-def]
        seen.extend(text for _, text in batch)
        return real(nlp, settings, batch)

    monkeypatch.setattr(parsing, "_parse", spy)
    return seen


def test_a_rerun_parses_nothing_and_extracts_the_same(tmp_path: Path, parsed: list[str]) -> None:
    first = _run(TEXTS, tmp_path, parsed)
    assert len(parsed) == 3
    again = _run(TEXTS, tmp_path, parsed)
    assert len(parsed) == 3  # nothing parsed the second time
    assert again == first


def test_a_rerun_that_parses_nothing_never_loads_the_pipeline(tmp_path: Path,
                                                              parsed: list[str]) -> None:
    first = _run(TEXTS, tmp_path, parsed)

    def refuse() -> Language:
        raise AssertionError("the pipeline was loaded with every text cached")

    assert _run(TEXTS, tmp_path, parsed, load=refuse) == first
    with pytest.raises(AssertionError, match="every text cached"):
        _run([*TEXTS, "Marley was dead."], tmp_path, parsed, load=refuse)


def test_only_changed_chunks_parse_and_a_new_parser_version_parses_all(
    tmp_path: Path, parsed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _run(TEXTS, tmp_path, parsed)
    changed = [TEXTS[0], "Marley was dead to begin with, said Scrooge.", TEXTS[2]]
    cached_run = _run(changed, tmp_path, parsed)
    assert parsed[3:] == [changed[1]]
    fresh = _run(changed, tmp_path / "fresh", parsed)
    assert cached_run == fresh  # cached and fresh parses extract the same
    monkeypatch.setattr(parse_cache, "PARSER_VERSION", parse_cache.PARSER_VERSION + 1)
    before = len(parsed)
    _run(changed, tmp_path, parsed)
    assert len(parsed) - before == 3


def test_settings_that_shape_terms_miss_the_cache(tmp_path: Path, parsed: list[str]) -> None:
    _run(TEXTS, tmp_path, parsed)
    _run(TEXTS, tmp_path, parsed, SETTINGS.model_copy(update={"concepts": False}))
    assert len(parsed) == 6
    _run(TEXTS, tmp_path, parsed, SETTINGS.model_copy(update={"processes": 3}))
    assert len(parsed) == 6  # parallelism does not change what a text yields
