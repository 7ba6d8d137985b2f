"""Exact name matches rewritten to match in part, as the generate prompt asks: the repair, with
no LLM call, of a query that found nothing because the graph spells the name in full."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from graphrag_neo4j.query.cypher.rewrites.literals import (
    Replacement,
    fresh_variable,
    literal_spans,
    rewrite_matches,
)
from graphrag_neo4j.query.cypher.rewrites.rewrite import Situation, When

# A node pattern whose only property is an exact name: (s:Person {name: 'Scrooge'}), (:X {name:
# "Y"}), ({name: 'Z'}). Found in the masked text, so the value is a run of the mask character.
_EXACT_NAME = re.compile(
    r"\(\s*(?P<var>[A-Za-z_][A-Za-z0-9_]*)?\s*(?P<labels>(?::\s*[A-Za-z_]\w*\s*)*)"
    r"\{\s*name\s*:\s*(?P<value>_+)\s*\}\s*\)"
)
# A name compared for equality in a WHERE: s.name = 'Scrooge' (the value masked, as above).
_EQUAL_NAME = re.compile(r"(?<![\w.])(?P<var>[A-Za-z_][A-Za-z0-9_]*)\.name\s*=\s*(?P<value>_+)")


def names_in_part(statement: str) -> str:
    """Every node pattern that matches a name exactly, `(s:Person {name: 'Scrooge'})`, made to
    match it in part and without case, `(s:Person WHERE toLower(s.name) CONTAINS
    toLower('Scrooge'))`, and so every `s.name = 'Scrooge'`; the statement unchanged when it
    has none."""
    patterns = rewrite_matches(statement, _EXACT_NAME, _in_part(statement, _pattern_in_part))
    return rewrite_matches(patterns, _EQUAL_NAME, _in_part(patterns, _equality_in_part))


def _in_part(
    statement: str, rewrite: Callable[[re.Match[str], str, list[str]], str]
) -> Replacement:
    """`rewrite` applied where the match's `value` is a whole string literal of `statement`."""
    spans = literal_spans(statement)

    def replace(found: re.Match[str], written: list[str]) -> str | None:
        if spans.get(found.start("value")) != found.end("value"):
            return None  # underscores of an identifier, not a masked literal
        return rewrite(found, statement, written)

    return replace


def _pattern_in_part(found: re.Match[str], statement: str, written: list[str]) -> str:
    var = found.group("var") or fresh_variable(statement, written, "named")
    labels = statement[found.start("labels"):found.end("labels")].strip()
    literal = statement[found.start("value"):found.end("value")]
    return f"({var}{labels} WHERE toLower({var}.name) CONTAINS toLower({literal}))"


def _equality_in_part(found: re.Match[str], statement: str, _: list[str]) -> str:
    literal = statement[found.start("value"):found.end("value")]
    return f"toLower({found.group('var')}.name) CONTAINS toLower({literal})"


@dataclass(frozen=True)
class PartialNames:
    """Exact name matches of a query that found nothing, matched in part."""

    name = "partial_names"
    note = "its exact names were matched in part"
    when = When.FOUND_NOTHING

    async def rewrite(self, query: str, situation: Situation) -> str | None:  # noqa: ARG002
        return names_in_part(query)
