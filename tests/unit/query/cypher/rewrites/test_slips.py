"""SQL's and Python's inequality and equality become Cypher's, never inside a literal."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from graphrag_neo4j.query.cypher.rewrites.slips import without_slips


def test_inequality_and_equality_are_spelt_the_cypher_way_outside_literals() -> None:
    query = ("MATCH (t)-[:RELATED]-(d) WHERE t.name != d.name AND d.type == 'person' AND"
             " d.note = 'a != b' AND `x==y`.z = 1 RETURN d")
    assert without_slips(query) == (
        "MATCH (t)-[:RELATED]-(d) WHERE t.name <> d.name AND d.type = 'person' AND"
        " d.note = 'a != b' AND `x==y`.z = 1 RETURN d")


@given(st.text(alphabet=st.characters(blacklist_characters="!="), max_size=60))
def test_a_statement_without_either_slip_never_changes(text: str) -> None:
    assert without_slips(text) == text
