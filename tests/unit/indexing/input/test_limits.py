"""Over-long document ids and entity names are refused one record at a time, with one line."""

from __future__ import annotations

import logging

import pytest

from graphrag_neo4j.indexing.input.limits import (
    MAX_KEY_BYTES,
    documents_within_limits,
    extraction_within_limits,
    too_long,
)
from graphrag_neo4j.indexing.records import (
    ChunkExtraction,
    Document,
    EntityMention,
    RelationMention,
)

LONG = "x" * (MAX_KEY_BYTES + 1)


def test_the_limit_counts_utf8_bytes() -> None:
    assert not too_long("x" * MAX_KEY_BYTES)
    assert too_long(LONG)
    assert too_long("é" * (MAX_KEY_BYTES // 2 + 1))  # two bytes each
    assert not too_long("é" * (MAX_KEY_BYTES // 2))


def test_a_document_with_an_over_long_id_is_refused_alone(caplog: pytest.LogCaptureFixture) -> None:
    good = [Document(id=f"d{i}", title="t", source="s", text="text") for i in range(3)]
    bad = Document(id=LONG, title="t", source="big.jsonl line 2", text="text")
    with caplog.at_level(logging.WARNING):
        kept, refused = documents_within_limits([good[0], bad, *good[1:]])
    assert kept == good and refused == 1
    (line,) = [r.getMessage() for r in caplog.records]
    assert line.startswith("big.jsonl line 2: the document id 'xxx") and "skipped" in line
    assert len(line) < 400


def test_an_over_long_name_drops_its_mentions_and_relations(
    caplog: pytest.LogCaptureFixture,
) -> None:
    extraction = ChunkExtraction(
        chunk_id="c1",
        entities=[EntityMention("c1", "Ada", "person", ""), EntityMention("c1", LONG, "x", "")],
        relations=[RelationMention("c1", "Ada", "knows", LONG),
                   RelationMention("c1", "Ada", "wrote", "Notes")],
        dropped_records=1,
    )
    with caplog.at_level(logging.WARNING):
        kept = extraction_within_limits(extraction, max_name_words=6)
    assert [m.name for m in kept.entities] == ["Ada"]
    assert [r.object for r in kept.relations] == ["Notes"]
    assert kept.dropped_records == 3
    assert len(caplog.records) == 1 and "chunk c1" in caplog.records[0].getMessage()


def test_an_extraction_within_limits_is_returned_as_is() -> None:
    extraction = ChunkExtraction("c1", [EntityMention("c1", "Ada", "person", "")])
    assert extraction_within_limits(extraction, max_name_words=6) is extraction


def test_names_that_name_nothing_are_refused_with_their_relations_and_counted() -> None:
    extraction = ChunkExtraction(
        "c1",
        [EntityMention("c1", "Ada", "person", ""),
         EntityMention("c1", "http://www.pgdp.net A CHRISTMAS CAROL", "concept", ""),
         EntityMention("c1", "print(NEO4J_PASSWORD)", "organization", "")],
        [RelationMention("c1", "Ada", "visits", "http://www.pgdp.net A CHRISTMAS CAROL"),
         RelationMention("c1", "Ada", "meets", "Babbage")],
    )
    kept = extraction_within_limits(extraction, max_name_words=6)
    assert [m.name for m in kept.entities] == ["Ada"]
    assert [r.object for r in kept.relations] == ["Babbage"]
    # The relation to the URL names Ada: it stays, as a fact in her description.
    assert kept.entities[0].description == "Ada visits http://www.pgdp.net A CHRISTMAS CAROL."
    assert kept.dropped_records == 2 and kept.value_facts == 1
    assert kept.refused_names == [("http://www.pgdp.net A CHRISTMAS CAROL", "a URL"),
                                  ("print(NEO4J_PASSWORD)", "code or markup")]


def test_a_relation_to_a_value_becomes_a_fact_on_the_entity_it_names() -> None:
    extraction = ChunkExtraction(
        "c1",
        [EntityMention("c1", "Riemann integral", "concept", "An integral."),
         EntityMention("c1", "1854", "date", ""),
         EntityMention("c1", "census", "event", ""),
         EntityMention("c1", "2010", "date", ""),
         EntityMention("c1", "unknown", "person", "")],
        [RelationMention("c1", "Riemann integral", "presented in", "1854"),
         RelationMention("c1", "Riemann integral", "published in", "1868",
                         description="Published in 1868, after Riemann's death."),
         RelationMention("c1", "2010", "is the year of", "census"),
         RelationMention("c1", "1854", "precedes", "1868"),
         RelationMention("c1", "census", "counted by", "unknown")],
    )
    kept = extraction_within_limits(extraction, max_name_words=6)
    assert {m.name: m.description for m in kept.entities} == {
        "Riemann integral": "An integral. Riemann integral presented in 1854. Published in 1868,"
                            " after Riemann's death.",
        "census": "2010 is the year of census.",
    }
    # Between two values there is no entity to hold a fact; a placeholder holds no value.
    assert kept.relations == [] and kept.value_facts == 3
    assert kept.dropped_records == 3 + 2
    assert {name for name, _ in kept.refused_names} == {"1854", "1868", "2010", "unknown"}
