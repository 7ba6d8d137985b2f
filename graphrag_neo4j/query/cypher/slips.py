"""Operators small models carry over from SQL and Python, written as Cypher spells them."""

from __future__ import annotations

import re

from graphrag_neo4j.query.cypher.literals import rewrite_matches

# `!=` and `==` are no Cypher operators (it says `<>` and `=`): the server refuses the query,
# and a repair call costs more than the spelling. Found outside literals only.
_SLIPS = {"!=": "<>", "==": "="}
_SLIP = re.compile("|".join(re.escape(slip) for slip in _SLIPS))


def without_slips(statement: str) -> str:
    """The statement with every `!=` written `<>` and every `==` written `=`, outside string
    literals and quoted names; unchanged when it has neither."""
    return rewrite_matches(statement, _SLIP, lambda found, _: _SLIPS[found.group()])
