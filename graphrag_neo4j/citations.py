"""Report citations checked against the context: only ids the model was shown survive."""

from __future__ import annotations

import re
from collections.abc import Mapping, Set

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
