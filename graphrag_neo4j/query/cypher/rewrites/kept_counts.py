"""A count grouped by the very node it counts (1 on every row) read from the count the engine
keeps on that node instead: what small models write for "the most mentioned" or "the most
related"."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from graphrag_neo4j.query.cypher.rewrites.literals import masked, rewrite_matches, top_level_items
from graphrag_neo4j.query.cypher.rewrites.rewrite import NoRepair, Situation, When
from graphrag_neo4j.query.cypher.rewrites.stems import stem
from graphrag_neo4j.query.cypher.schema import ENTITY_COUNTS

# `count(*)`, `count(p)` or `count(DISTINCT p)`, with the column name it is given if any.
_COUNT = re.compile(
    r"\bcount\s*\(\s*(?:DISTINCT\s+)?(?P<arg>\*|[A-Za-z_]\w*)\s*\)"
    r"(?:\s+AS\s+(?P<column>[A-Za-z_]\w*))?",
    flags=re.IGNORECASE,
)
_NODE_VARIABLE = re.compile(r"\(\s*(?P<var>[A-Za-z_]\w*)\s*[:){]")
_RELATIONSHIP = re.compile(r"-\[|\]-|--|->|<-")
_PROJECTION = re.compile(r"\b(?:RETURN|WITH)\b", flags=re.IGNORECASE)
_PROJECTION_END = re.compile(
    r"\b(?:ORDER\s+BY|SKIP|LIMIT|WHERE|RETURN|WITH|MATCH|UNWIND|CALL|UNION)\b",
    flags=re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+")
MIN_WORD = 5  # shorter words ("it", "has", "that") say nothing of what is counted


def kept_count(statement: str, counts: Mapping[str, str], question: str) -> str | None:
    """The statement with each count of its one node's own rows, grouped by that node
    (`RETURN l.name, count(*) AS mentions`, 1 on every row), replaced by the node's kept count
    the column name (or else the question) asks for: `RETURN l.name, l.frequency AS
    mentions`; None when the query matches a relationship or more than one node, the count is
    not grouped by the node, or no one kept count is asked for.

    `counts` maps each kept count's property to what it counts ("passages that mention it")."""
    text = masked(statement)
    variables = {found.group("var") for found in _NODE_VARIABLE.finditer(text)}
    found = list(_COUNT.finditer(text))
    if _RELATIONSHIP.search(text) or len(variables) != 1 or not found:
        return None  # a relationship's rows can be counted per node, and mean something
    (variable,) = variables
    if any(count.group("arg") not in ("*", variable) for count in found) or not _grouped_by(
            text, found[0], variable):
        return None
    columns = " ".join(count.group("column") or "" for count in found)
    key = _asked_for(counts, columns) or _asked_for(counts, question)
    if key is None:
        return None
    return rewrite_matches(statement, _COUNT, lambda count, _: f"{variable}.{key}" + (
        f" AS {count.group('column')}" if count.group("column") else ""))


def _grouped_by(text: str, count: re.Match[str], variable: str) -> bool:
    """Whether the projection holding the count also returns the variable or a property of
    it (so the count is per node); `RETURN count(p)` alone counts the nodes."""
    starts = [found.end() for found in _PROJECTION.finditer(text, 0, count.start())]
    if not starts:
        return False
    end = _PROJECTION_END.search(text, count.end())
    items = top_level_items(text[starts[-1]:end.start() if end else len(text)])
    own = re.compile(rf"^\s*(?:DISTINCT\s+)?{re.escape(variable)}\b(?!\s*\()",
                     flags=re.IGNORECASE)
    return any(own.search(item) for item in items if not _COUNT.search(item))


def _asked_for(counts: Mapping[str, str], words: str) -> str | None:
    """The one kept count whose name or meaning shares a word with `words`, or None."""
    asked = _stems(words.replace("_", " "))
    keys = [key for key, meaning in counts.items() if _stems(f"{key} {meaning}") & asked]
    return keys[0] if len(keys) == 1 else None


def _stems(text: str) -> set[str]:
    return {stem(word.lower()) for word in _WORD.findall(text) if len(word) >= MIN_WORD}


@dataclass(frozen=True)
class KeptCounts(NoRepair):
    """A count of one node's own rows, grouped by that node, read from the count it keeps."""

    name = "kept_counts"
    note = ("a count of one node's own rows grouped by that node (1 on every row) was read from"
            " the count the graph keeps on it")
    when = When.WRITTEN

    async def rewrite(self, query: str, situation: Situation) -> str | None:
        counts = {key: meaning for key, meaning in ENTITY_COUNTS.items()
                  if key in situation.schema.properties}
        return kept_count(query, counts, situation.question)
