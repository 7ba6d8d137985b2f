"""The rows an answer cites: `[Data: Sources (1, 2); Entities (3)]` resolved against its tables."""

from __future__ import annotations

import re
from typing import Any

from graphrag_neo4j.query.base import Answer
from graphrag_neo4j.query.context import Row
from graphrag_neo4j.query.source_places import PLACE_KEYS

_CITATION = re.compile(r"\[Data:\s*([^\]]*)\]")
_PART = re.compile(r"^\s*([A-Za-z]+)\s*\(([^)]*)\)\s*$")
# What a citation shows of a row: its ids and names, never the whole text.
_KEYS = ("id", "chunk_id", "document_id", "title", "name", "source", "target", "predicate",
         *PLACE_KEYS)


def _table(kind: str, tables: list[str]) -> str | None:
    """The context table a cited kind names ("Source" and "sources" both mean "Sources")."""
    wanted = kind.lower().rstrip("s")
    return next((t for t in tables if t.lower().rstrip("s") == wanted), None)


def _row(rows: list[Row], ref: str) -> Row | None:
    return next((row for row in rows if str(row.get("ref")) == ref), None)


def cited_rows(answer: Answer) -> list[dict[str, Any]]:
    """Each distinct row the answer text cites, in order: table, ref, and the row's ids.

    A citation of a table or row the context did not show (an invented id) is left out.
    """
    found: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for citation in _CITATION.finditer(answer.text):
        for part in citation.group(1).split(";"):
            match = _PART.match(part)
            table = _table(match.group(1), list(answer.sources)) if match else None
            if match is None or table is None:
                continue
            for ref in (value.strip() for value in match.group(2).split(",")):
                row = _row(answer.sources[table], ref)
                if row is None or (table, ref) in seen:
                    continue
                seen.add((table, ref))
                shown = {key: row[key] for key in _KEYS if row.get(key) is not None}
                found.append({"table": table, "ref": int(ref), **shown})
    return found


def citation_legend(citations: list[dict[str, Any]]) -> list[str]:
    """One line per cited row, for a reader: "Sources (3): manual.pdf p. 12",
    "Entities (5): SCROOGE"."""
    lines = []
    for cited in citations:
        label = cited.get("where") or cited.get("name") or cited.get("title") or cited.get("id")
        if cited.get("predicate"):
            label = f"{cited.get('source')} {cited['predicate']} {cited.get('target')}"
        lines.append(f"{cited['table']} ({cited['ref']}): {label}")
    return lines
