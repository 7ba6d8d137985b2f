"""Which documents a run (re)indexes: new and changed ones; complete, unchanged ones are skipped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from graphrag_neo4j.indexing.records import Document


@dataclass
class Changes:
    """The documents to index, how many were skipped, which changed since stored, and which a
    failed run left half-written."""

    todo: list[Document] = field(default_factory=list)
    unchanged: int = 0
    changed: list[str] = field(default_factory=list)  # ids whose old version goes first
    incomplete: list[str] = field(default_factory=list)  # same text, never marked indexed

    @property
    def cleared(self) -> list[str]:
        """Ids whose stored version goes before they are indexed again."""
        return self.changed + self.incomplete


def documents_to_index(
    documents: Sequence[Document], stored: Mapping[str, Mapping[str, Any]]
) -> Changes:
    """Each id once; `stored` holds the rows of indexing/find_indexed_documents by id."""
    changes = Changes()
    for document in {d.id: d for d in documents}.values():
        row = stored.get(document.id)
        if row and row["complete"] and row["content_hash"] == document.content_hash:
            changes.unchanged += 1
            continue
        if row and row["content_hash"] != document.content_hash:
            changes.changed.append(document.id)
        elif row:  # a run stopped inside its batch: what it wrote goes, so none is doubled
            changes.incomplete.append(document.id)
        changes.todo.append(document)
    return changes
