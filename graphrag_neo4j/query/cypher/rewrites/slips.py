"""Operators small models carry over from SQL and Python, written as Cypher spells them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphrag_neo4j.query.cypher.rewrites.literals import rewrite_matches
from graphrag_neo4j.query.cypher.rewrites.rewrite import Situation, When

# `!=` and `==` are no Cypher operators (it says `<>` and `=`): the server refuses the query,
# and a repair call costs more than the spelling. Found outside literals only.
_SLIPS = {"!=": "<>", "==": "="}
_SLIP = re.compile("|".join(re.escape(slip) for slip in _SLIPS))


def without_slips(statement: str) -> str:
    """The statement with every `!=` written `<>` and every `==` written `=`, outside string
    literals and quoted names; unchanged when it has neither."""
    return rewrite_matches(statement, _SLIP, lambda found, _: _SLIPS[found.group()])


@dataclass(frozen=True)
class Slips:
    """`!=` and `==` in every written query, as Cypher spells them."""

    name = "slips"
    note = "SQL's and Python's operators (!=, ==) were written as Cypher spells them"
    when = When.WRITTEN

    async def rewrite(self, query: str, situation: Situation) -> str | None:  # noqa: ARG002
        return without_slips(query)
