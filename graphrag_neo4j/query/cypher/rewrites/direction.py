"""RELATED followed both ways where its direction says nothing: the schema's rule, enforced."""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphrag_neo4j.query.cypher.rewrites.literals import masked
from graphrag_neo4j.query.cypher.rewrites.rewrite import NoRepair, Situation, When

# A relationship pattern whose types include RELATED: [r:RELATED], [:RELATED*..3],
# [r:RELATED {predicate: 'x'}], [:KNOWS|RELATED]. Brackets never nest inside one.
_BODY = r"\[[^\[\]]*?[:|]\s*RELATED\b[^\[\]]*\]"
_OUTGOING = re.compile(rf"-{_BODY}-(?P<arrow>>)")
_INCOMING = re.compile(rf"(?P<arrow><)-{_BODY}-")


def undirected_related(statement: str) -> str:
    """The statement with every arrow on a RELATED pattern dropped: (a)-[:RELATED]->(b) and
    (a)<-[:RELATED]-(b) both become (a)-[:RELATED]-(b).

    Where predicates do not say how entities relate (a fast graph's co-occurrences), a RELATED
    relationship is stored once per pair in whichever direction its pair was first met, so
    an arrow finds only part of the answer; small models write one anyway, told not to."""
    # Literals and quoted names are masked, so an arrow inside one is never touched.
    text = masked(statement)
    arrows = {match.start("arrow") for pattern in (_OUTGOING, _INCOMING)
              for match in pattern.finditer(text)}
    return "".join(char for index, char in enumerate(statement) if index not in arrows)


@dataclass(frozen=True)
class Direction(NoRepair):
    """RELATED followed both ways unless predicates tell how entities relate."""

    name = "direction"
    note = ("RELATED was followed both ways, as predicates do not tell how entities relate (an"
            " arrow finds part of the answer)")
    when = When.WRITTEN

    async def rewrite(self, query: str, situation: Situation) -> str | None:
        return None if situation.schema.predicates_tell else undirected_related(query)
