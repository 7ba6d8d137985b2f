"""Fast extraction of fixed text with the real (small, offline) spaCy model."""

from __future__ import annotations

import gc
import textwrap
import warnings

import pytest

from graphrag_neo4j.indexing.extraction.fast.extraction import (
    collector_paused,
    extract_fast,
    extract_fast_in_thread,
)
from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline
from graphrag_neo4j.indexing.extraction.fast.parsing import parsed_texts, pipe_processes, unwrapped
from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction
from graphrag_neo4j.settings import FastExtractionSettings

PARAGRAPH = (
    "Ebenezer Scrooge ran a counting-house in London. His clerk Bob Cratchit copied letters "
    "in a cold cell. On Christmas Eve, Scrooge refused the invitation of his nephew Fred. "
    "Bob Cratchit went home to Camden Town with Tiny Tim. The counting-house was cold and dark."
)
# One chunk is no corpus: every phrase counts, and no hub is pruned.
ONE_CHUNK = FastExtractionSettings(min_concept_frequency=1, hub_degree_percentile=100)
CO = "co-occurs with"


def _extract(texts: list[str], settings: FastExtractionSettings) -> list[ChunkExtraction]:
    chunks = [Chunk(f"c{i}", "d1", text, i, 50) for i, text in enumerate(texts)]
    return extract_fast(load_pipeline, chunks, settings)


@pytest.fixture(scope="module")
def paragraph() -> ChunkExtraction:
    (extraction,) = _extract([PARAGRAPH], ONE_CHUNK)
    return extraction


def test_entities_and_their_types(paragraph: ChunkExtraction) -> None:
    assert {(e.name, e.type) for e in paragraph.entities} == {
        ("Ebenezer Scrooge", "person"), ("Scrooge", "person"), ("Bob Cratchit", "person"),
        ("Fred", "person"), ("Tiny Tim", "person"), ("London", "location"),
        ("Camden", "location"), ("counting-house", "concept"), ("clerk", "concept"),
        ("letter", "concept"), ("cold cell", "concept"), ("Christmas Eve", "concept"),
        ("invitation", "concept"), ("nephew", "concept"),
    }


def test_relations_take_the_verb_linking_a_subject_else_co_occur(
    paragraph: ChunkExtraction,
) -> None:
    assert {(r.subject, r.predicate, r.object) for r in paragraph.relations} == {
        ("Ebenezer Scrooge", "run", "counting-house"), ("Ebenezer Scrooge", "run", "London"),
        ("counting-house", CO, "London"),
        ("Bob Cratchit", CO, "clerk"), ("Bob Cratchit", CO, "cold cell"),
        ("Bob Cratchit", CO, "letter"), ("clerk", CO, "cold cell"), ("clerk", "copy", "letter"),
        ("cold cell", CO, "letter"),
        ("Christmas Eve", CO, "Fred"), ("Christmas Eve", CO, "invitation"),
        ("Christmas Eve", CO, "nephew"), ("Scrooge", "refuse", "Christmas Eve"),
        ("Scrooge", "refuse", "invitation"), ("Fred", CO, "invitation"), ("Fred", CO, "nephew"),
        ("Fred", CO, "Scrooge"), ("invitation", CO, "nephew"), ("nephew", CO, "Scrooge"),
        ("Bob Cratchit", CO, "Camden"), ("Bob Cratchit", "go", "Tiny Tim"),
        ("Camden", CO, "Tiny Tim"),
    }
    assert {r.strength for r in paragraph.relations} == {1.0}


def test_descriptions_are_the_supporting_sentences_verbatim(paragraph: ChunkExtraction) -> None:
    house = next(e for e in paragraph.entities if e.name == "counting-house")
    assert house.description.split("\n") == [
        "Ebenezer Scrooge ran a counting-house in London.", "The counting-house was cold and dark."
    ]
    go = next(r for r in paragraph.relations if r.predicate == "go")
    assert go.description == "Bob Cratchit went home to Camden Town with Tiny Tim."


def test_hard_wrapped_text_extracts_what_the_paragraph_does(paragraph: ChunkExtraction) -> None:
    wrapped = textwrap.fill(PARAGRAPH, width=33)
    assert "Bob\nCratchit" in wrapped and "Tiny\nTim" in wrapped
    assert _extract([wrapped], ONE_CHUNK) == [paragraph]


def test_line_wraps_and_space_runs_fold_hyphens_join_and_paragraph_breaks_stay() -> None:
    text = "Marley was dead:\nto begin   with.\n\nNo doubt\r\n  whatever of the counting-\nhouse."
    (parsed,) = parsed_texts([Chunk("c0", "d1", text, 0, 20)])
    assert parsed == "Marley was dead: to begin with.\n\nNo doubt whatever of the counting-house."


def test_headings_list_items_quotes_and_table_rows_keep_their_line_breaks() -> None:
    text = "# Stave One\nMarley was\ndead.\n- a list\n* item\n2. and\n> a quote\n| a | row |"
    assert unwrapped(text) == text.replace("was\ndead", "was dead")
    assert unwrapped("a dash--\nand on, pre-\n1843") == "a dash \u2014 and on, pre-1843"


def test_ascii_dashes_become_an_em_dash_and_horizontal_rules_stay() -> None:
    assert unwrapped("see him----Yes, indeed") == "see him \u2014 Yes, indeed"
    assert unwrapped("oily voice--'Hallo!' again--'and") == (
        "oily voice \u2014 'Hallo!' again \u2014 'and")
    assert unwrapped("a well-known co-op") == "a well-known co-op"
    assert unwrapped("Stave\n\n----\n\nOne") == "Stave\n\n----\n\nOne"


def test_sentence_co_occurrence_counts_and_chunk_co_occurrence_is_weaker() -> None:
    text = (
        "Alice Smith met Carol Jones in Paris. Alice Smith wrote to Carol Jones. Bob Brown slept."
    )
    settings = ONE_CHUNK.model_copy(update={"concepts": False, "min_edge_weight": 0.0})
    (extraction,) = _extract([text], settings)
    weights = {(r.subject, r.predicate, r.object): r.strength for r in extraction.relations}
    pair = sum(w for (s, _, o), w in weights.items() if {s, o} == {"Alice Smith", "Carol Jones"})
    assert pair == 2.0
    assert weights[("Alice Smith", CO, "Bob Brown")] == settings.chunk_weight


def test_chunk_co_occurrence_reaches_only_nearby_sentences() -> None:
    text = "Alice Smith slept. It rained. Bob Brown woke. It snowed. Carol Jones ran."
    settings = ONE_CHUNK.model_copy(
        update={"concepts": False, "min_edge_weight": 0.0, "chunk_window_sentences": 3}
    )
    (extraction,) = _extract([text], settings)
    pairs = {frozenset((r.subject, r.object)) for r in extraction.relations}
    # Alice and Carol are four sentences apart: no pair.
    assert pairs == {
        frozenset({"Alice Smith", "Bob Brown"}), frozenset({"Bob Brown", "Carol Jones"})
    }


def test_a_sentence_two_windows_share_counts_once() -> None:
    shared = "Alice Smith met Carol Jones in Paris."
    chunks = [
        Chunk("c0", "d1", f"Bob Brown slept. {shared}", 0, 20),
        Chunk("c1", "d1", f"{shared} Dan White woke up early.", 1, 20),
    ]
    settings = ONE_CHUNK.model_copy(update={"concepts": False, "min_edge_weight": 0.0})
    first, second = extract_fast(load_pipeline, chunks, settings)
    pair = [r for r in first.relations + second.relations
            if {r.subject, r.object} == {"Alice Smith", "Carol Jones"}]
    assert [(r.chunk_id, r.strength) for r in pair] == [("c0", 1.0)]
    assert {e.name for e in second.entities} == {"Dan White"}


def test_titled_names_and_the_corpus_frequency_of_concepts() -> None:
    texts = [
        "The Ghost of Christmas Past showed Scrooge a lantern.",
        "Scrooge dropped the lantern near the window.",
        "Scrooge opened a window.",
    ]
    settings = FastExtractionSettings(min_concept_frequency=2, hub_degree_percentile=100)
    names = {(e.name, e.type) for x in _extract(texts, settings) for e in x.entities}
    assert ("Ghost of Christmas Past", "concept") in names
    assert {"lantern", "window"} <= {name for name, _ in names}
    # Seen in one chunk only, so no concept.
    assert "near" not in {name for name, _ in names}


def test_labels_outside_the_mapping_are_dropped() -> None:
    settings = ONE_CHUNK.model_copy(update={"concepts": False})
    (extraction,) = _extract(["Ada Lovelace was born in London on 10 December 1815."], settings)
    assert {(e.name, e.type) for e in extraction.entities} == {
        ("Ada Lovelace", "person"), ("London", "location")
    }


def test_worker_processes_extract_exactly_what_one_process_does() -> None:
    texts = [PARAGRAPH, "Scrooge dropped the lantern near the window.", PARAGRAPH[:120],
             "Bob Cratchit and Tiny Tim walked home to Camden Town."] * 4
    one = ONE_CHUNK.model_copy(update={"processes": 1})
    two = ONE_CHUNK.model_copy(update={"processes": 2, "batch_size": 1})
    assert pipe_processes(two, len(texts)) == 2
    assert _extract(texts, two) == _extract(texts, one)


def test_a_small_input_parses_in_this_process() -> None:
    settings = FastExtractionSettings(processes=2)
    assert pipe_processes(settings, 15) == 1
    assert pipe_processes(settings, 16) == 2
    assert pipe_processes(settings.model_copy(update={"processes": 0}), 100) == 1


async def test_workers_forked_from_the_extraction_thread_exit_cleanly() -> None:
    texts = ["Bob Cratchit and Tiny Tim walked home to Camden Town."] * 16
    chunks = [Chunk(f"c{i}", "d1", text, i, 50) for i, text in enumerate(texts)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. spaCy's W127, had a worker exited with an error
        extractions = await extract_fast_in_thread(load_pipeline, chunks, ONE_CHUNK)
    assert len(extractions) == 16


def test_the_collector_is_paused_while_extractions_are_built_and_restored_after() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        assert not gc.isenabled()
        raise RuntimeError("a failing step")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # a caller's own pause is left as it was
    finally:
        gc.enable()
