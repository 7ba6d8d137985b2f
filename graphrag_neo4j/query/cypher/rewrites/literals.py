"""Where a Cypher statement's string literals and quoted names are, so rewrites skip them;
the one loop every rewrite of a generated statement goes through."""

from __future__ import annotations

import re
from collections.abc import Callable

_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`(?:[^`]|``)*`", flags=re.DOTALL)
MASK = "_"
# The start of a node pattern with a variable and its labels, if any: `(e`, `(f:__Entity__:Person`.
NODE_HEAD = r"\(\s*(?P<var>[A-Za-z_]\w*)\s*(?P<labels>(?::\s*[A-Za-z_]\w*\s*)*)"


def masked(statement: str) -> str:
    """The statement with every literal and quoted name replaced by as many `MASK` characters:
    positions stay, and no pattern can match inside one."""
    return _QUOTED.sub(lambda found: MASK * len(found.group()), statement)


# A match in the masked statement and what was written before it -> its new text (None keeps
# the statement's own text there).
Replacement = Callable[[re.Match[str], list[str]], "str | None"]


def rewrite_matches(statement: str, pattern: re.Pattern[str], replacement: Replacement) -> str:
    """The statement with each match of `pattern` in its masked form (so never inside a
    literal) replaced by what `replacement` gives for it."""
    parts: list[str] = []
    last = 0
    for found in pattern.finditer(masked(statement)):
        new = replacement(found, parts)
        if new is not None:
            parts += [statement[last:found.start()], new]
            last = found.end()
    return "".join(parts) + statement[last:]


def fresh_variable(statement: str, written: list[str], prefix: str) -> str:
    """A variable `prefix_N` used nowhere in the statement or in what was rewritten so far."""
    taken = statement + "".join(written)
    number = 1
    while f"{prefix}_{number}" in taken:
        number += 1
    return f"{prefix}_{number}"


def top_level_items(items: str) -> list[str]:
    """A projection's items, split at the commas outside brackets (literals already masked)."""
    parts, depth, last = [], 0, 0
    for index, char in enumerate(items):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(items[last:index])
            last = index + 1
    return [*parts, items[last:]]
