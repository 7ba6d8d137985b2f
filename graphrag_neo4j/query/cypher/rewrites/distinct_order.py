"""`RETURN DISTINCT ... ORDER BY r.weight`, which the server refuses, as the ranking it meant."""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphrag_neo4j.query.cypher.rewrites.literals import masked, top_level_items
from graphrag_neo4j.query.cypher.rewrites.rewrite import Situation, When

# The last clause of a query returning distinct rows ordered by one property of a variable.
# Cypher refuses it when neither that variable nor that property is projected: after
# DISTINCT only the projected values exist. Small models write it to rank the rows (e.g. by
# relation weight), so it is run as that ranking: one row per distinct projection, ranked by
# the best value of the key among its matches.
_RETURN = re.compile(
    r"\bRETURN\s+DISTINCT\s+(?P<items>.+?)\s+ORDER\s+BY\s+"
    r"(?P<key>(?P<var>[A-Za-z_]\w*)\.[A-Za-z_]\w*)"
    r"(?:\s+(?P<direction>ASC|ASCENDING|DESC|DESCENDING))?"
    r"(?P<tail>(?:\s+(?:SKIP|LIMIT)\s+\w+)*)\s*;?\s*$",
    flags=re.IGNORECASE | re.DOTALL,
)
_ALIAS = re.compile(r"\s+AS\s+", flags=re.IGNORECASE)
# Items that hold another clause are no projection of one RETURN (a subquery's, a UNION's).
_CLAUSE = re.compile(r"\b(?:RETURN|WITH|MATCH|UNION|CALL)\b", flags=re.IGNORECASE)
RANK = "ranked_by"  # the column the key's best value is returned in


def ranked_distinct(statement: str) -> str:
    """The statement with a refused `RETURN DISTINCT items ORDER BY v.key` written
    `RETURN items, max(v.key) AS ranked_by ORDER BY ranked_by DESC` (min when ascending);
    unchanged when the key or its variable is projected, or the shape is any other."""
    found = _RETURN.search(masked(statement))
    if found is None or _CLAUSE.search(found.group("items")):
        return statement
    # Each item as [expression] or [expression, column name].
    items = [_ALIAS.split(item.strip(), maxsplit=1) for item in
             top_level_items(found.group("items"))]
    expressions = {item[0] for item in items}
    if {found.group("key"), found.group("var")} & expressions or any(
            item[-1].lower() == RANK for item in items):
        return statement  # the server accepts this order, or the column name is taken
    ascending = (found.group("direction") or "ASC").upper().startswith("ASC")
    best, order = ("min", "ASC") if ascending else ("max", "DESC")
    start, end = found.span("items")
    key = statement[found.start("key"):found.end("key")]
    tail = statement[found.start("tail"):found.end("tail")]
    return (f"{statement[:found.start()]}RETURN {statement[start:end]}, {best}({key}) AS {RANK}"
            f" ORDER BY {RANK} {order}{tail}")


@dataclass(frozen=True)
class DistinctOrder:
    """`RETURN DISTINCT ... ORDER BY v.key` that the server refuses, run as its ranking."""

    name = "distinct_order"
    note = ("distinct rows ordered by a value they dropped (which the server refuses) were"
            " ranked by that value instead")
    when = When.WRITTEN

    async def rewrite(self, query: str, situation: Situation) -> str | None:  # noqa: ARG002
        return ranked_distinct(query)
