"""Fast extraction in two passes over the parse cache: the output of deciding over all parses
held at once, window after window; the names each document holds for alias folding."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.indexing.extraction.fast import streamed
from graphrag_neo4j.indexing.extraction.fast.extraction import extract_fast
from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline
from graphrag_neo4j.indexing.extraction.fast.streamed import CorpusRun
from graphrag_neo4j.indexing.records import Chunk
from graphrag_neo4j.settings import FastExtractionSettings

SETTINGS = FastExtractionSettings(min_concept_frequency=2, processes=1)
TEXTS = [
    "Ebenezer Scrooge carried a lantern through London. Scrooge saw Jacob Marley.",
    "Scrooge sat alone by the fire with a lantern. Jacob Marley came through the door.",
    "Bob Cratchit held the lantern for Tiny Tim. Bob Cratchit lived in Camden Town.",
    "Jacob Marley worked in the City of London. Marley was dead as a door-nail.",
    "Fred invited his uncle Ebenezer Scrooge to dinner in London. Fred laughed at Scrooge.",
    "Martha Cratchit came home to Camden Town. Bob Cratchit and Tiny Tim met her in London.",
    "Il pleuvait sur Paris depuis trois jours et personne ne sortait plus de la maison.",
]


def _chunks() -> list[Chunk]:
    return [Chunk(f"c{i}", f"d{i // 3}", text, i % 3, 20) for i, text in enumerate(TEXTS)]


def test_two_passes_in_small_windows_give_what_one_pass_over_everything_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chunks = _chunks()
    readable = [c for c in chunks if c.document_id != "d2"]
    whole = extract_fast(load_pipeline, readable, SETTINGS)
    monkeypatch.setattr(streamed, "WINDOW_CHUNKS", 2)  # three windows and a bit
    run = CorpusRun.decided(load_pipeline, chunks, {"d2": "written in French (fr)"},
                            SETTINGS, tmp_path, 6)
    assert run.covers(chunks) and not run.covers([Chunk("x", "d9", "new", 0, 1)])
    first, rest = run.extractions(chunks[:2]), run.extractions(chunks[2:])
    assert first + rest[:-1] == whole
    assert rest[-1].refused_reason == "written in French (fr)" and not rest[-1].entities
    assert any(e.relations for e in whole), "the input must relate names to mean anything"


def test_the_scope_holds_each_chunks_names_without_sentences(tmp_path: Path) -> None:
    # Per chunk, not per document (issue 58): alias folding asks which names a chunk holds
    # together before it takes a first name for a full name.
    chunks = _chunks()
    run = CorpusRun.decided(load_pipeline, chunks, {"d2": "French"}, SETTINGS, tmp_path, 6)
    whole = run.extractions(chunks)
    expected = {c.id: {(m.name, m.type) for m in e.entities}
                for c, e in zip(chunks, whole, strict=True) if c.document_id != "d2"}
    scope = {x.chunk_id: x for x in run.scope}
    assert set(scope) == set(expected)
    for chunk_id, names in expected.items():
        held = scope[chunk_id].entities
        assert {(m.name, m.type) for m in held} == names
        assert all(m.description == "" for m in held)
    assert any(expected.values())
