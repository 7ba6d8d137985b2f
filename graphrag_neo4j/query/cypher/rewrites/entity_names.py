"""A property entities do not have, returned from an entity, read as its name: the repair,
with no LLM call, of `RETURN e.title` (null on every row) for "list the events"."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from graphrag_neo4j.query.cypher.attempt import Attempt
from graphrag_neo4j.query.cypher.rewrites.literals import NODE_HEAD, masked, rewrite_matches
from graphrag_neo4j.query.cypher.rewrites.rewrite import Situation, When
from graphrag_neo4j.query.cypher.schema import GraphSchema
from graphrag_neo4j.runtime.resources import load_prompt

_NODE = re.compile(NODE_HEAD)  # (e:Event), (f:__Entity__:Person); (e) has no labels
_PROPERTY = re.compile(r"(?<![\w.])(?P<var>[A-Za-z_]\w*)\.(?P<key>[A-Za-z_]\w*)")
_LAST_RETURN = re.compile(r"\bRETURN\b(?!.*\bRETURN\b)", flags=re.IGNORECASE | re.DOTALL)
NAME = "name"


def entity_names_read(
    statement: str, entity_labels: Collection[str], entity_properties: Collection[str]
) -> str | None:
    """The statement with each `e.key` its final RETURN reads from an entity variable, where
    entities have no `key`, read as `e.name`; None when there is none (or entities have no
    names to read)."""
    if NAME not in entity_properties:
        return None
    text = masked(statement)
    returned = _LAST_RETURN.search(text)
    if returned is None:
        return None
    entities = {found.group("var") for found in _NODE.finditer(text)
                if set(re.findall(r"\w+", found.group("labels"))) & set(entity_labels)}

    def as_name(found: re.Match[str], _: list[str]) -> str | None:
        if (found.start() < returned.start() or found.group("var") not in entities
                or found.group("key") in entity_properties):
            return None
        return f"{found.group('var')}.{NAME}"

    rewritten = rewrite_matches(statement, _PROPERTY, as_name)
    return rewritten if rewritten != statement else None


@dataclass(frozen=True)
class EntityNames:
    """A property entities lack, returned by a query that found nothing, read as their names."""

    name = "entity_names"
    note = "a property entities do not have was read as their names"
    when = When.FOUND_NOTHING

    async def rewrite(self, query: str, situation: Situation) -> str | None:
        schema = situation.schema
        return entity_names_read(query, schema.entity_labels, schema.entity_properties)

    def problem(
        self, attempt: Attempt, schema: GraphSchema, prompts_dir: Path | None,  # noqa: ARG002
    ) -> str:
        """Why a query finds nothing most often (prompts/query/cypher/found_nothing.txt): a name
        written otherwise, a relation read the other way, a predicate worded otherwise."""
        found = "found no rows" if not attempt.rows else "returned only zeros or empty values"
        return load_prompt("query/cypher/found_nothing", prompts_dir).format(found=found).strip()
