"""A node variable named after a name in the question but never filtered on it, filtered: small
models write `(robert_de_niro:__Entity__)` and believe the node is that one."""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphrag_neo4j.query.cypher.rewrites.literals import NODE_HEAD, masked
from graphrag_neo4j.query.cypher.rewrites.rewrite import Situation, When

# A node pattern with a variable, labels at most, nothing that narrows it: (v), (v:A:B).
_BARE_NODE = re.compile(NODE_HEAD + r"\)")
_FIRST_PROJECTION = re.compile(r"\b(?:RETURN|WITH)\b", flags=re.IGNORECASE)
MIN_NAME_CHARS = 3  # `p` or `ab` is a variable, not a name


def filtered_named_variables(statement: str, question: str) -> str:
    """The statement with each node variable that spells a capitalised name of the question
    (`robert_de_niro` for "Robert De Niro") and is narrowed nowhere before the first RETURN
    or WITH given that filter: `(robert_de_niro:__Entity__ WHERE
    toLower(robert_de_niro.name) CONTAINS 'robert de niro')`; unchanged otherwise."""
    text = masked(statement)
    before_projection = text[:_end_of_matching(text)]
    done: set[str] = set()
    parts: list[str] = []
    last = 0
    for found in _BARE_NODE.finditer(before_projection):
        var = found.group("var")
        if var in done or _narrowed(before_projection, var):
            continue
        done.add(var)
        name = _spelt_name(var, question)
        if name is None:
            continue
        labels = found.group("labels").strip()
        parts += [statement[last:found.start()],
                  f"({var}{labels} WHERE toLower({var}.name) CONTAINS '{name}')"]
        last = found.end()
    return "".join(parts) + statement[last:]


def _end_of_matching(text: str) -> int:
    found = _FIRST_PROJECTION.search(text)
    return found.start() if found else len(text)


def _narrowed(text: str, var: str) -> bool:
    """The variable's node is narrowed: a property read (in a WHERE), or a pattern of it with
    a property map or a WHERE of its own."""
    return bool(re.search(rf"(?<![\w.]){re.escape(var)}\s*\.", text) or re.search(
        rf"\(\s*{re.escape(var)}\b[^()]*(?:\{{|\bWHERE\b)", text, flags=re.IGNORECASE))


def _spelt_name(var: str, question: str) -> str | None:
    """The name the variable spells, lower case, when the question writes it with a capital
    (not only as its first word); else None."""
    words = [word for word in var.lower().split("_") if word]
    if len("".join(words)) < MIN_NAME_CHARS:
        return None
    pattern = r"(?<!\w)" + r"\W+".join(re.escape(word) for word in words) + r"(?!\w)"
    for found in re.finditer(pattern, question, flags=re.IGNORECASE):
        written = found.group().split()
        capitalised = any(word[:1].isupper() for word in written)
        if capitalised and (found.start() > 0 or len(written) > 1):
            return " ".join(words)
    return None


@dataclass(frozen=True)
class NamedVariables:
    """A node variable named after a name of the question, filtered on that name."""

    name = "named_variables"
    note = "a node variable named after a name of the question was filtered on that name"
    when = When.WRITTEN

    async def rewrite(self, query: str, situation: Situation) -> str | None:
        return filtered_named_variables(query, situation.question)
