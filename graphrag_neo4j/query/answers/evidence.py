"""The Neo4j Browser query that draws an answer's evidence: `:param` lines + a saved query."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from graphrag_neo4j.query.base import Answer
from graphrag_neo4j.runtime.resources import load_cypher

EVIDENCE_QUERY = "explore/answer_evidence"
GENERATED_TABLE, GENERATED_RESULTS = "Cypher", "Results"  # a `cypher` answer's query and rows
# Evidence parameter -> the context tables whose rows carry those ids, and the id keys.
_TABLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "entity_ids": (("Entities",), ("id",)),
    "relation_ids": (("Relationships",), ("id",)),
    "chunk_ids": (("Sources",), ("id", "chunk_id")),
    "community_ids": (("Reports",), ("id",)),
}


def _ids(rows: Sequence[dict[str, Any]], keys: tuple[str, ...]) -> list[str]:
    found: list[str] = []
    for row in rows:
        value = next((row[k] for k in keys if row.get(k) is not None), None)
        if value is not None and str(value) not in found:
            found.append(str(value))
    return found


def evidence_params(answer: Answer) -> dict[str, list[str]]:
    """The ids of everything the answer's context used, by evidence-query parameter."""
    params = {}
    for name, (tables, keys) in _TABLES.items():
        rows = [row for table in tables for row in answer.sources.get(table, [])]
        params[name] = _ids(rows, keys)
    return params


def browser_script(answer: Answer) -> str:
    """Paste-ready Browser input: one `:param` line per parameter, then the evidence query.

    JSON string lists are valid Cypher list literals, so the ids need no other quoting. A
    `cypher` answer shows the query the model wrote instead: as it is when it ran, commented
    out when it was refused or failed; after a fallback, the local evidence query follows.
    """
    generated = answer.sources.get(GENERATED_TABLE, [])
    if generated and GENERATED_RESULTS in answer.sources:
        return generated_script(generated[0])
    lines = [f":param {name} => {json.dumps(ids)};"
             for name, ids in evidence_params(answer).items()]
    script = "\n".join([*lines, load_cypher(EVIDENCE_QUERY).strip()])
    return "\n".join([generated_script(generated[0]), script]) if generated else script


def generated_script(record: dict[str, Any]) -> str:
    """The query a `cypher` answer's model wrote, headed by what became of it."""
    status, reason = str(record["status"]), str(record["reason"])
    head = f"// The query the model wrote ({status}{': ' + reason if reason else ''})"
    query = str(record["query"])
    if status != "ran":  # never paste-ready: refused, not compiled, or naming what the graph lacks
        query = "\n".join(f"// {line}" for line in query.splitlines())
    return f"{head}\n{query}"
