"""Exact name matches rewritten to match in part, as the generate prompt asks: the repair, with
no LLM call, of a query that found nothing because the graph spells the name in full."""

from __future__ import annotations

import re
from collections.abc import Callable

from graphrag_neo4j.query.cypher.literals import literal_spans, masked

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
    return _rewrite(_rewrite(statement, _EXACT_NAME, _pattern_in_part), _EQUAL_NAME,
                    _equality_in_part)


def _pattern_in_part(found: re.Match[str], statement: str, written: list[str]) -> str:
    var = found.group("var") or _fresh_variable(statement, written)
    labels = statement[found.start("labels"):found.end("labels")].strip()
    literal = statement[found.start("value"):found.end("value")]
    return f"({var}{labels} WHERE toLower({var}.name) CONTAINS toLower({literal}))"


def _equality_in_part(found: re.Match[str], statement: str, _: list[str]) -> str:
    literal = statement[found.start("value"):found.end("value")]
    return f"toLower({found.group('var')}.name) CONTAINS toLower({literal})"


def _rewrite(
    statement: str, pattern: re.Pattern[str],
    replacement: Callable[[re.Match[str], str, list[str]], str],
) -> str:
    """Each match of `pattern` in the masked statement whose `value` group is a whole string
    literal, replaced; `replacement` gets the match, the statement and what was written."""
    text, spans = masked(statement), literal_spans(statement)
    parts: list[str] = []
    last = 0
    for found in pattern.finditer(text):
        if spans.get(found.start("value")) != found.end("value"):
            continue  # underscores of an identifier, not a masked literal
        parts += [statement[last:found.start()], replacement(found, statement, parts)]
        last = found.end()
    return "".join(parts) + statement[last:]


def _fresh_variable(statement: str, written: list[str]) -> str:
    """A variable name used nowhere in the statement or in what was rewritten so far."""
    taken = statement + "".join(written)
    number = 1
    while f"named_{number}" in taken:
        number += 1
    return f"named_{number}"
