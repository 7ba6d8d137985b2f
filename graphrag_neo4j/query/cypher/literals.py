"""Where a Cypher statement's string literals and quoted names are, so rewrites skip them."""

from __future__ import annotations

import re

_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`(?:[^`]|``)*`", flags=re.DOTALL)
MASK = "_"


def masked(statement: str) -> str:
    """The statement with every literal and quoted name replaced by as many `MASK` characters:
    positions stay, and no pattern can match inside one."""
    return _QUOTED.sub(lambda found: MASK * len(found.group()), statement)


def literal_spans(statement: str) -> dict[int, int]:
    """Start -> end of every string literal ('...' or "..."), not of `quoted names`."""
    return {found.start(): found.end() for found in _QUOTED.finditer(statement)
            if found.group()[0] != "`"}
