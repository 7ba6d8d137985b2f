"""Entity type -> Neo4j label (`:__Entity__:Person`), from a whitelist built from the settings.

A label cannot be a Cypher parameter in a `MATCH` pattern, but Neo4j 5.26 sets and removes
dynamic labels (`SET e:$(labels)`) from parameter values. The statement that does it
(`cypher/indexing/types/set_type_labels.cypher`) reads each entity's stored type and looks its label
up in the `labels_by_type` map built here, so no text from a model ever becomes a label: a type
outside the whitelist simply gets no label.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from graphrag_neo4j.indexing.extraction.schema import OTHER
from graphrag_neo4j.indexing.records import normalize_type

if TYPE_CHECKING:
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.settings import Settings

_WORDS = re.compile(r"[A-Za-z0-9]+")
_LABEL = re.compile(r"^[A-Z][A-Za-z0-9]{0,62}$")
UNTYPED = "unknown"


def label_for(entity_type: str) -> str | None:
    """`work of art` -> `WorkOfArt`; None when no safe identifier can be made of it."""
    words = _WORDS.findall(normalize_type(entity_type))
    label = "".join(word[:1].upper() + word[1:] for word in words)
    return label if _LABEL.match(label) else None


@dataclass(frozen=True)
class TypeLabels:
    """Which entity types get which label; `enabled` False means every type label goes."""

    by_type: Mapping[str, str]
    enabled: bool = True

    @classmethod
    def from_types(cls, types: Iterable[str], enabled: bool = True) -> TypeLabels:
        """The whitelist of `types` (normalised; `unknown` and unsafe names left out)."""
        by_type: dict[str, str] = {}
        for entity_type in types:
            key, label = normalize_type(entity_type), label_for(entity_type)
            if label is not None and key != UNTYPED:
                by_type.setdefault(key, label)
        return cls(by_type, enabled)

    @classmethod
    def from_settings(cls, settings: Settings) -> TypeLabels:
        """Every type the settings let an extraction method write, plus the extra label types."""
        extraction = settings.extraction
        types = [
            *extraction.entity_types,
            *extraction.fast.label_types.values(),
            extraction.fast.concept_type,
            *extraction.extra_label_types,
            *extraction.schema_.entity_types,
            *([OTHER] if extraction.schema_.entity_types else []),
        ]
        return cls.from_types(types, extraction.type_labels)

    @property
    def labels(self) -> list[str]:
        """Every label of the whitelist, the ones to remove when a type changes."""
        return sorted(set(self.by_type.values()))

    def params(self) -> dict[str, Any]:
        """The parameters of `indexing/types/set_type_labels` beside its `$rows`."""
        return {"labels_by_type": dict(self.by_type) if self.enabled else {},
                "type_labels": self.labels}

    def step(self, entity_ids: Iterable[str]) -> tuple[str, dict[str, Any]]:
        """The statement that brings these entities' labels in line with their types."""
        rows = [{"id": entity_id} for entity_id in sorted(set(entity_ids))]
        return "indexing/types/set_type_labels", {"rows": rows, **self.params()}


def relabel_all(store: Store, type_labels: TypeLabels) -> int:
    """Bring every entity's type label in line with its type and the settings; the count."""
    rows = store.read("indexing/entities/list_entity_ids")
    return store.write_rows("indexing/types/set_type_labels", rows, **type_labels.params())
