"""The labels, relationship types and properties a generated query names but the graph lacks."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# Neo4j compiles a query naming an unknown label, relationship type or property and only warns;
# such a query finds nothing. The wordings of Neo4j 5.26's GQL statuses ("The label `Ghost`
# does not exist") and of the older notifications ("(the missing label name is: Ghost)").
_KINDS = {
    "label": ("label", "label name"),
    "relationship type": ("relationship type", "relationship type"),
    "property": ("property", "property name"),
}
_PATTERNS = [
    (kind, re.compile(rf"\bThe {gql} `(?P<quoted>(?:[^`]|``)+)` does not exist"
                      rf"|the missing {legacy} is: (?P<plain>.+)\)\s*$"))
    for kind, (gql, legacy) in _KINDS.items()
]


@dataclass(frozen=True)
class UnknownName:
    """One name the query uses that the graph does not have; `kind` is one of _KINDS."""

    kind: str
    name: str

    def __str__(self) -> str:
        shown = self.name if self.kind == "property" else f":{self.name}"
        return f"the {self.kind} {shown}"


def unknown_names(notices: Sequence[Mapping[str, str]]) -> list[UnknownName]:
    """Every unknown name the plan's notices report, once each, in their order."""
    found = (_unknown(str(notice.get("description", ""))) for notice in notices)
    return list(dict.fromkeys(name for name in found if name is not None))


def _unknown(description: str) -> UnknownName | None:
    for kind, pattern in _PATTERNS:
        match = pattern.search(description)
        if match:
            quoted = match.group("quoted")
            name = quoted.replace("``", "`") if quoted is not None else match.group("plain")
            return UnknownName(kind, name.strip())
    return None


def describe(names: Sequence[UnknownName]) -> str:
    """The names as one phrase: "the label :Ghost and the property hatsize"."""
    parts = [str(name) for name in names]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
