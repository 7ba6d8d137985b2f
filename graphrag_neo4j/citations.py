"""`[Data: Sources (1, 2); Entities (3)]` citations: checked against the context (only ids the
model was shown survive), stripped, and resolved to the rows an answer cites."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from typing import Any, Protocol

_CITATION = re.compile(r"(\s?)\[Data:\s*([^\]]*)\]")
# Small models sometimes put ids after the brackets too: "Reports (1), 7".
_PART = re.compile(r"^\s*([A-Za-z]+)\s*\(([^)]*)\)\s*(?:,([^()]*))?$")
_MORE = {"+more", "more", "..."}
# The kinds of record a report or an answer may cite (Results: a Cypher query's rows), with
# the spellings models use for them.
KINDS = {"entities": "Entities", "entity": "Entities", "relationships": "Relationships",
         "relationship": "Relationships", "relations": "Relationships",
         "relation": "Relationships", "reports": "Reports", "report": "Reports",
         "sources": "Sources", "source": "Sources", "results": "Results", "result": "Results"}


def _clean_part(part: str, known: Mapping[str, Set[str]]) -> str | None:
    match = _PART.match(part)
    kind = KINDS.get(match.group(1).lower()) if match else None
    if match is None or kind is None:
        return None
    listed = match.group(2) + ("," + match.group(3) if match.group(3) else "")
    ids = [value.strip() for value in listed.split(",")]
    kept = list(dict.fromkeys(value for value in ids if value in known.get(kind, set())))
    if not kept:
        return None
    if any(value.lower() in _MORE for value in ids):
        kept.append("+more")
    return f"{kind} ({', '.join(kept)})"


def clean_citations(text: str, known: Mapping[str, Set[str]]) -> str:
    """`text` with each [Data: ...] reduced to ids from the context; empty citations removed.

    `known` maps "Entities", "Relationships", "Reports" (and "Sources") to the ids the context
    showed, so a copied example id or an invented one never reaches the stored text.
    """

    def replace(match: re.Match[str]) -> str:
        parts = [_clean_part(part, known) for part in match.group(2).split(";")]
        kept = [part for part in parts if part]
        return f"{match.group(1)}[Data: {'; '.join(kept)}]" if kept else ""

    return _CITATION.sub(replace, text)


def strip_citations(text: str) -> str:
    """`text` without its [Data: ...] citations."""
    return _CITATION.sub("", text)


def cites(text: str, kind: str) -> bool:
    """Whether a [Data: ...] citation of `text` names rows of `kind` (canonical: "Reports")."""
    return any(f"{kind} (" in body for _, body in _CITATION.findall(text))


# What a Sources row gains from `query.answers.source_places`: its place, as data and as one
# readable line (`where`).
PLACE_KEYS = ("document", "path", "page_start", "page_end", "section", "char_start",
              "char_end", "chunk_index", "where")


class CitingAnswer(Protocol):
    """What resolving citations reads of an answer (`query.base.Answer` meets it)."""

    @property
    def text(self) -> str: ...

    @property
    def sources(self) -> Mapping[str, Sequence[Mapping[str, Any]]]: ...


# A part of a citation as an answer writes it: a table and its refs.
_CITED_PART = re.compile(r"^\s*([A-Za-z]+)\s*\(([^)]*)\)\s*$")
# What a citation shows of a row: its ids and names, never the whole text.
_KEYS = ("id", "chunk_id", "document_id", "title", "name", "source", "target", "predicate",
         *PLACE_KEYS)


def _table(kind: str, tables: list[str]) -> str | None:
    """The context table a cited kind names ("Source" and "sources" both mean "Sources")."""
    wanted = kind.lower().rstrip("s")
    return next((t for t in tables if t.lower().rstrip("s") == wanted), None)


def _row(rows: Sequence[Mapping[str, Any]], ref: str) -> Mapping[str, Any] | None:
    return next((row for row in rows if str(row.get("ref")) == ref), None)


def cited_rows(answer: CitingAnswer) -> list[dict[str, Any]]:
    """Each distinct row the answer text cites, in order: table, ref, and the row's ids.

    A citation of a table or row the context did not show (an invented id) is left out.
    """
    found: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for citation in _CITATION.finditer(answer.text):
        for part in citation.group(2).split(";"):
            match = _CITED_PART.match(part)
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
