"""Hops' numbered facts: each with the numbers of the shown passages it comes from."""

from __future__ import annotations

from graphrag_neo4j.query.hops.packing import facts_block, numbered_facts
from graphrag_neo4j.query.hops.rerank import Candidate


def test_facts_are_numbered_and_point_at_the_passages_shown() -> None:
    facts = [Candidate("r1", "Euler", "student of", "Johann Bernoulli", ("c2", "c9"), 0.91),
             Candidate("r2", "Daniel Bernoulli", "son of", "Johann Bernoulli", ("c9",), 0.8)]
    shown = [{"ref": 1, "chunk_id": "c1"}, {"ref": 2, "chunk_id": "c2"}]
    rows = numbered_facts(facts, shown)
    assert [(row["ref"], row["sources"]) for row in rows] == [(1, [2]), (2, [])]
    text = facts_block(rows)
    assert text.splitlines()[1] == f"(1) {facts[0].sentence} [Data: Sources (2)]"
    assert text.splitlines()[2] == f"(2) {facts[1].sentence}"  # its passage was not shown
