"""Relations as numbered facts: their wording and the passages they cite."""

from __future__ import annotations

from graphrag_neo4j.query.local.facts import FactsBuilder, relation_fact, source_refs

REL = {"source": "Bob Cratchit", "predicate": "co-occurs with", "target": "Scrooge",
       "description": "'Mr. Scrooge!' said Bob.", "chunk_ids": ["c3", "c1", "c3"]}


def test_a_co_occurrence_reads_as_names_together_not_as_a_relation() -> None:
    assert relation_fact(REL, "co-occurs with") == (
        "Bob Cratchit and Scrooge are named together: 'Mr. Scrooge!' said Bob.")
    # With its passage shown, the passage says it in context: no excerpt beside the fact.
    assert relation_fact(REL, "co-occurs with", cited=True) == (
        "Bob Cratchit and Scrooge are named together")
    # Another graph's predicate is a stated relation, shown as one.
    assert relation_fact({**REL, "predicate": "works for", "description": ""},
                         "co-occurs with") == "Bob Cratchit works for Scrooge"


def test_facts_cite_only_the_passages_shown_each_once() -> None:
    shown = [{"id": "c1", "ref": 1}, {"id": "c3", "ref": 2}]
    assert source_refs(REL["chunk_ids"], shown) == [2, 1]
    table = FactsBuilder("Relationships", [], 200)
    table.fill([REL, {**REL, "chunk_ids": ["c9"]}],
               lambda r: (relation_fact(r), source_refs(r["chunk_ids"], shown)))
    lines = table.render().splitlines()
    assert lines[0] == "-----Relationships-----"
    assert lines[1].startswith("(1) Bob Cratchit co-occurs with Scrooge")
    assert lines[1].endswith("[Data: Sources (2, 1)]")
    assert lines[2].endswith("said Bob.")  # its passage was not shown: no citation
    assert [row["ref"] for row in table.rows] == [1, 2]
