"""The live graph schema the model writes Cypher from: labels, relationship types, properties."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from graphrag_neo4j.query.base import GraphReader
from graphrag_neo4j.query.context import Row

# Bookkeeping the model has no use for: locks, the merge audit trail, vectors, hashes.
HIDDEN_LABELS = ("__Lock__", "__Merge__", "__Vectors__")
HIDDEN_TYPES = ("MERGED_INTO",)
HIDDEN_PROPERTIES = (
    "embedding", "description_embedding", "content_hash", "extractive_hash", "type_label",
    "mention_descriptions", "mention_strengths", "mention_subjects", "mention_objects",
)
ENTITY = "__Entity__"
SAMPLE_NODES = 50  # nodes (relationships) per label (type) the sample values come from
SAMPLE_CHARS = 40  # a long sample value (a passage, a description) is cut to this
PREDICATES = 25  # the most common relation predicates listed (the words queries filter on)
# The counts the engine keeps on every entity, by what each counts: samples alone do not say
# that `degree` counts relations, and a model asked "who is mentioned most" counts rows instead.
ENTITY_COUNTS = {"frequency": "passages that mention it", "degree": "relations it has"}
# What the engine's own properties mean.
MEANINGS = {
    **{("__Entity__", key): meaning for key, meaning in ENTITY_COUNTS.items()},
    ("__Entity__", "description"): "what the passages say of it",
    ("__Community__", "level"): "0 = broadest",
    ("__Community__", "size"): "entities in it",
    ("__Chunk__", "n_tokens"): "its length in tokens",
    ("RELATED", "weight"): "how strongly, from how often the two are related",
    ("RELATED", "chunk_ids"): "the passages that state it",
}


@dataclass(frozen=True)
class GraphSchema:
    """The schema as prompt text, and the names in it a query may use (for a repair that
    must replace a name the graph does not have)."""

    text: str
    labels: list[str]
    types: list[str]
    properties: list[str]
    predicates_tell: bool = False  # RELATED's predicates say how entities relate
    # The labels an entity node carries (:__Entity__ and its type labels), and the properties
    # entity nodes have.
    entity_labels: tuple[str, ...] = ()
    entity_properties: tuple[str, ...] = ()


def read_schema(store: GraphReader, samples: int) -> GraphSchema:
    """The schema, read from the graph as it is now."""
    common = {"hidden_properties": list(HIDDEN_PROPERTIES), "sample_nodes": SAMPLE_NODES,
              "samples": samples}
    labels = store.read(
        "query/schema/schema_node_labels", hidden_labels=list(HIDDEN_LABELS), **common
    )
    types = store.read("query/schema/schema_relationship_types", hidden_types=list(HIDDEN_TYPES),
                       **common)
    predicates = store.read("query/schema/schema_predicates", limit=PREDICATES)
    return schema_of(labels, types, predicates)


@dataclass
class SchemaCache:
    """The schema, read again only when the graph's label and relationship-type counts or its
    latest indexing change (`query/schema/schema_state`): the samples sort every node of a label."""

    _key: tuple[object, int] | None = None
    _schema: GraphSchema | None = None

    def get(self, store: GraphReader, samples: int) -> GraphSchema:
        """The schema of the graph as it is now, with `samples` values per property."""
        key = (store.read("query/schema/schema_state"), samples)
        if self._schema is None or key != self._key:
            self._schema, self._key = read_schema(store, samples), key
        return self._schema


def schema_of(
    labels: Sequence[Row], types: Sequence[Row], predicates: Sequence[Row] = ()
) -> GraphSchema:
    """The rendered schema with the labels, relationship types and properties in use."""
    keys = {p["key"] for row in [*labels, *types] for p in row["properties"]}
    return GraphSchema(
        text=render_schema(labels, types, predicates),
        labels=[row["label"] for row in labels if row["nodes"] > 0],
        types=[row["type"] for row in types if row["relationships"] > 0],
        properties=sorted(str(key) for key in keys),
        predicates_tell=_predicates_tell(predicates, _related(types)),
        entity_labels=tuple(row["label"] for row in labels if row["nodes"] > 0 and (
            row["label"] == ENTITY or ENTITY in row["also"])),
        entity_properties=tuple(sorted(str(p["key"]) for row in labels
                                       if row["label"] == ENTITY for p in row["properties"])),
    )


def _related(types: Sequence[Row]) -> int:
    return sum(row["relationships"] for row in types if row["type"] == "RELATED")


def render_schema(
    labels: Sequence[Row], types: Sequence[Row], predicates: Sequence[Row] = ()
) -> str:
    """Node labels with counts and properties; type labels in one line each; relationships;
    the relations' predicates and which way they read."""
    lines = ["Node labels (node count): properties with sample values"]
    type_labels = []
    for row in labels:
        if row["nodes"] == 0:
            continue
        if not row["label"].startswith("__") and "__Entity__" in row["also"]:
            type_labels.append(f":{row['label']} ({row['nodes']})")
            continue
        lines.append(f"(:{row['label']}) ({row['nodes']}):"
                     f" {_properties(row['label'], row['properties'])}")
    if type_labels:
        lines.append("Entity type labels, each node also :__Entity__ (its `type` property"
                     " in lower case): " + ", ".join(type_labels))
    lines.append("Relationships (count): properties with sample values")
    for row in types:
        ends = ", ".join(f"(:{e['source']})-[:{row['type']}]->(:{e['target']})"
                         for e in row["ends"])
        lines.append(f"{ends} ({row['relationships']}):"
                     f" {_properties(row['type'], row['properties'])}")
    lines.extend(_predicate_lines(predicates, _related(types)))
    return "\n".join(lines)


def _predicate_lines(predicates: Sequence[Row], related: int) -> list[str]:
    """How RELATED's `predicate` reads, and its common values; when one predicate holds most
    relations (co-occurrence), that the predicates say little and are not to be filtered on."""
    if not predicates:
        return []
    top = predicates[0]
    if not _predicates_tell(predicates, related):
        return [f"{top['relationships']} of the {related} RELATED relationships have the"
                f" predicate {_sample(top['predicate'])}, which does not say how two entities"
                " are related: never filter on the predicate, and follow RELATED both ways."]
    listed = ", ".join(f"{_sample(row['predicate'])} ({row['relationships']})"
                       for row in predicates)
    # A phrase shows the direction better than a bare verb ("located in" over "is").
    example = next((row["predicate"] for row in predicates if " " in str(row["predicate"])),
                   top["predicate"])
    return [
        f"RELATED predicates, most common first (relationships): {listed}",
        f"A predicate reads from the start node to the end node: (a)-[r:RELATED]->(b) WHERE"
        f" r.predicate = {_sample(example)} says \"a {example} b\". The same relation is often"
        " worded in several ways: match it with toLower(r.predicate) CONTAINS 'a key word'.",
    ]


def _predicates_tell(predicates: Sequence[Row], related: int) -> bool:
    """False when there are none, or one holds most relations (co-occurrence says nothing)."""
    return len(predicates) > 1 and predicates[0]["relationships"] * 2 <= related


def _properties(owner: str, properties: Sequence[Row]) -> str:
    """Each property of a label (or type) with its meaning, when the engine wrote it, and its
    sample values."""
    if not properties:
        return "no properties"

    def one(p: Row) -> str:
        meaning = MEANINGS.get((owner, str(p["key"])))
        named = f"{p['key']} ({meaning})" if meaning else str(p["key"])
        return f"{named} e.g. {', '.join(_sample(v) for v in p['samples'])}"

    return "; ".join(one(p) for p in sorted(properties, key=lambda p: str(p["key"])))


def _sample(value: Any) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= SAMPLE_CHARS else text[: SAMPLE_CHARS - 4] + '..."'
