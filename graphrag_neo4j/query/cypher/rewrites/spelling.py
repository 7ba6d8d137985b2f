"""Names the model misspelt, spelt the graph's way: the repair, with no LLM call, of a query that
found nothing because a name in it is written as no entity is ("robert de niore")."""

from __future__ import annotations

import asyncio
import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from graphrag_neo4j.lucene import fuzzy_query
from graphrag_neo4j.query.base import GraphReader
from graphrag_neo4j.query.cypher.rewrites.literals import literal_spans, masked
from graphrag_neo4j.query.cypher.rewrites.rewrite import Situation, When

# How alike (difflib's ratio, without case) a written name and a graph name must be: a letter
# or two wrong in a name of ten; a different name of the same shape stays below it.
MIN_LIKENESS = 0.85
# How many fuzzy name matches are weighed for each name a query wrote.
CANDIDATES = 10
# A string literal compared with a name: {name: 'X'}, x.name = 'X', toLower(x.name) CONTAINS
# toLower('X'), x.name STARTS WITH 'X'... (found in the masked text: the value is a mask run).
_NAME_LITERAL = re.compile(
    r"(?:\bname\s*:\s*|\.name\s*\)?\s*(?:=|CONTAINS|STARTS\s+WITH|ENDS\s+WITH)\s*"
    r"(?:toLower\s*\(\s*)?)(?P<value>_+)",
    flags=re.IGNORECASE,
)
_ESCAPE = re.compile(r"\\(.)", flags=re.DOTALL)


def written_names(statement: str) -> list[str]:
    """The names the statement compares entity names with, unquoted, in order, once each."""
    spans = literal_spans(statement)
    names = [_unquoted(statement[found.start("value"):found.end("value")])
             for found in _NAME_LITERAL.finditer(masked(statement))
             if spans.get(found.start("value")) == found.end("value")]
    return list(dict.fromkeys(name for name in names if name.strip()))


async def graph_spellings(store: GraphReader, written: list[str]) -> dict[str, str]:
    """Each written name the graph spells otherwise -> the graph's spelling (fuzzy fulltext
    candidates, the closest kept when alike enough)."""
    names = [{"written": name, "query": query} for name in written
             if (query := fuzzy_query(name))]
    if not names:
        return {}
    rows = await asyncio.to_thread(store.read, "query/entity_names_by_spelling", names=names,
                                   limit=CANDIDATES)
    spellings = {row["written"]: closest_spelling(row["written"], row["names"]) for row in rows}
    return {written: spelling for written, spelling in spellings.items() if spelling}


def closest_spelling(written: str, names: Sequence[str]) -> str | None:
    """The graph name spelt most like `written`, in `written`'s case when that was all lower or
    all upper; None when none is alike enough or one is the same name."""
    key = written.casefold()
    by_key = {name.casefold(): name for name in names}
    match = difflib.get_close_matches(key, list(by_key), n=1, cutoff=MIN_LIKENESS)
    if key in by_key or not match:
        return None
    best = by_key[match[0]]
    if written == written.lower():
        return best.lower()
    return best.upper() if written == written.upper() else best


def respelt(statement: str, spellings: Mapping[str, str]) -> str:
    """The statement with each name literal in `spellings` written the graph's way, in the
    same quotes; everything else unchanged."""
    spans = literal_spans(statement)
    parts: list[str] = []
    last = 0
    for found in _NAME_LITERAL.finditer(masked(statement)):
        start, end = found.start("value"), found.end("value")
        if spans.get(start) != end:
            continue
        literal = statement[start:end]
        new = spellings.get(_unquoted(literal))
        if new is not None:
            parts += [statement[last:start], _quoted(new, literal[0])]
            last = end
    return "".join(parts) + statement[last:]


def _unquoted(literal: str) -> str:
    return _ESCAPE.sub(r"\1", literal[1:-1])


def _quoted(text: str, quote: str) -> str:
    escaped = text.replace("\\", "\\\\").replace(quote, "\\" + quote)
    return f"{quote}{escaped}{quote}"


@dataclass(frozen=True)
class Spelling:
    """Names of a query that found nothing, spelt the graph's way when one is alike enough."""

    name = "spelling"
    note = "a name it misspelt was written the graph's way"
    when = When.FOUND_NOTHING

    async def rewrite(self, query: str, situation: Situation) -> str | None:
        spellings = await graph_spellings(situation.store, written_names(query))
        return respelt(query, spellings) if spellings else None
