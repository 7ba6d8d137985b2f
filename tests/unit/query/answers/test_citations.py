"""Report citations keep only ids the context showed."""

from __future__ import annotations

from graphrag_neo4j.citations import clean_citations

KNOWN = {"Entities": {"e1", "e2"}, "Relationships": {"r1"}, "Reports": {"c7"}}


def test_known_ids_stay_and_unknown_ones_go() -> None:
    text = "Euler taught. [Data: Entities (e1, e9, +more); Relationships (r1, r2)]"
    assert clean_citations(text, KNOWN) == (
        "Euler taught. [Data: Entities (e1, +more); Relationships (r1)]")


def test_a_citation_with_nothing_known_disappears() -> None:
    text = "Copied the example. [Data: Entities (id, id); Relationships (id)] Then more."
    assert clean_citations(text, KNOWN) == "Copied the example. Then more."


def test_kind_spellings_are_normalised_and_unknown_kinds_dropped() -> None:
    text = "[Data: relationship (r1); Sources (s1); reports (c7)]"
    assert clean_citations(text, KNOWN) == "[Data: Relationships (r1); Reports (c7)]"


def test_text_without_citations_is_unchanged() -> None:
    assert clean_citations("Plain [text] here.", KNOWN) == "Plain [text] here."


def test_ids_after_the_brackets_count_too() -> None:
    text = "Community and greed [Data: Reports (c7), r1, c8]."
    known = {**KNOWN, "Reports": {"c7", "c8"}}
    assert clean_citations(text, known) == "Community and greed [Data: Reports (c7, c8)]."


def test_a_cypher_answer_keeps_its_result_rows() -> None:
    known = {"Results": {"1", "2"}, "Cypher": set()}
    text = "New Year [Data: Results (1, 3)]; Twelfth Night [Data: result (2)]."
    assert clean_citations(text, known) == (
        "New Year [Data: Results (1)]; Twelfth Night [Data: Results (2)].")


def test_an_id_cited_twice_is_kept_once() -> None:
    assert clean_citations("[Data: Entities (e1, e2, e1)]", KNOWN) == "[Data: Entities (e1, e2)]"
