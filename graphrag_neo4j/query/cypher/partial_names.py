"""Exact name matches rewritten to match in part, as the generate prompt asks: the repair, with
no LLM call, of a query that found nothing because the graph spells the name in full."""

from __future__ import annotations

import re

from graphrag_neo4j.query.cypher.literals import literal_spans, masked

# A node pattern whose only property is an exact name: (s:Person {name: 'Scrooge'}), (:X {name:
# "Y"}), ({name: 'Z'}). Found in the masked text, so the value is a run of the mask character.
_EXACT_NAME = re.compile(
    r"\(\s*(?P<var>[A-Za-z_][A-Za-z0-9_]*)?\s*(?P<labels>(?::\s*[A-Za-z_]\w*\s*)*)"
    r"\{\s*name\s*:\s*(?P<value>_+)\s*\}\s*\)"
)


def names_in_part(statement: str) -> str:
    """Every node pattern that matches a name exactly, `(s:Person {name: 'Scrooge'})`, made to
    match it in part and without case, `(s:Person WHERE toLower(s.name) CONTAINS
    toLower('Scrooge'))`; the statement unchanged when it has none."""
    text, spans = masked(statement), literal_spans(statement)
    parts: list[str] = []
    last = 0
    for found in _EXACT_NAME.finditer(text):
        value_start, value_end = found.span("value")
        if spans.get(value_start) != value_end:
            continue  # underscores of an identifier, not a masked literal
        var = found.group("var") or _fresh_variable(statement, parts)
        labels = statement[found.start("labels"):found.end("labels")].strip()
        literal = statement[value_start:value_end]
        parts += [statement[last:found.start()],
                  f"({var}{labels} WHERE toLower({var}.name) CONTAINS toLower({literal}))"]
        last = found.end()
    return "".join(parts) + statement[last:] if parts else statement


def _fresh_variable(statement: str, written: list[str]) -> str:
    """A variable name used nowhere in the statement or in what was rewritten so far."""
    taken = statement + "".join(written)
    number = 1
    while f"named_{number}" in taken:
        number += 1
    return f"named_{number}"
