"""Undoes a recorded entity merge: the merged-away entity comes back with its own mentions."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.graph.refresh import Mergers, refresh_entities, refresh_relations
from graphrag_neo4j.indexing.graph.type_labels import TypeLabels
from graphrag_neo4j.indexing.graph.writer import group_relation_mentions
from graphrag_neo4j.indexing.records import normalize_name, relation_id
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.runtime.errors import InputError

Row = dict[str, Any]
UNDOABLE_DECIDERS = ("llm", "alias")


@dataclass(frozen=True)
class UnmergeReport:
    """What undoing one merge moved back to the restored entity."""

    merge_id: str
    restored_id: str
    restored_name: str
    into_name: str
    chunks: int
    relation_mentions: int


@dataclass
class UnmergePlan:
    """The writes that give the merged-away entity back its chunk and relation mentions."""

    restored_mentions: list[Row] = field(default_factory=list)
    dropped_mentions: list[Row] = field(default_factory=list)
    renamed_mentions: list[Row] = field(default_factory=list)
    moved_relation_mentions: list[Row] = field(default_factory=list)
    detached: dict[str, list[str]] = field(default_factory=dict)

    def steps(self, footprint: Row) -> list[tuple[str, dict[str, Any]]]:
        """The named statements that carry the plan out, for one transaction."""
        detach_rows = [{"id": rid, "chunk_ids": chunks} for rid, chunks in self.detached.items()]
        merge_id = footprint["id"]
        spellings = {"from_id": footprint["from_id"], "into_id": footprint["into_id"],
                     "from_key": normalize_name(footprint["from_name"]), "merge_id": merge_id}
        return [
            ("indexing/entities/merge_entity_mentions", {"rows": self.restored_mentions}),
            ("indexing/merges/repoint_spelling_merges", spellings),
            ("indexing/deletion/delete_entity_mentions", {"rows": self.dropped_mentions}),
            ("indexing/entities/set_mention_surface_names", {"rows": self.renamed_mentions}),
            ("indexing/relations/merge_relation_mentions",
             {"rows": group_relation_mentions(self.moved_relation_mentions)}),
            ("indexing/deletion/detach_relation_mentions", {"rows": detach_rows}),
            ("indexing/merges/mark_merge_undone", {"id": merge_id}),
        ]


def plan_unmerge(footprint: Row) -> UnmergePlan:
    """Which mentions of the surviving entity used the merged-away name, and where they go."""
    from_key = normalize_name(footprint["from_name"])
    plan = UnmergePlan()
    _plan_relations(plan, footprint, from_key)
    relation_chunks = {m["chunk_id"]: m for m in plan.moved_relation_mentions}
    for mention in footprint["mentions"]:
        _plan_chunk_mention(plan, footprint, mention, from_key, relation_chunks)
    return plan


def _plan_chunk_mention(
    plan: UnmergePlan, footprint: Row, mention: Row, from_key: str, relation_chunks: dict[str, Row]
) -> None:
    names = list(mention["surface_names"])
    moving = [n for n in names if normalize_name(n) == from_key]
    if not moving and mention["chunk_id"] in relation_chunks:
        moving = [footprint["from_name"]]  # the chunk named it only inside a relation
    if not moving:
        return
    staying = [n for n in names if n not in moving]
    edge = {"chunk_id": mention["chunk_id"], "entity_id": footprint["into_id"]}
    if staying:
        plan.renamed_mentions.append({**edge, "surface_names": staying})
    else:
        plan.dropped_mentions.append(edge)
    plan.restored_mentions.append({
        "chunk_id": mention["chunk_id"], "entity_id": footprint["from_id"],
        "name": footprint["from_name"], "name_key": from_key, "type": footprint["from_type"],
        "surface_type": mention["surface_type"] or footprint["from_type"],
        "description": mention["description"], "surface_names": moving,
    })


def _plan_relations(plan: UnmergePlan, footprint: Row, from_key: str) -> None:
    into_id, from_id = footprint["into_id"], footprint["from_id"]
    for relation in footprint["relations"]:
        subjects = relation["subjects"] or []
        objects = relation["objects"] or []
        for i, chunk_id in enumerate(relation["chunk_ids"]):
            subject = subjects[i] if i < len(subjects) else ""
            obj = objects[i] if i < len(objects) else ""
            source = _moved_end(relation["source_id"], subject, into_id, from_id, from_key)
            target = _moved_end(relation["target_id"], obj, into_id, from_id, from_key)
            if (source, target) == (relation["source_id"], relation["target_id"]):
                continue
            plan.detached.setdefault(relation["id"], []).append(chunk_id)
            if source == target:
                continue  # "Euler influenced Leonhard Euler" would be a self-loop: dropped
            plan.moved_relation_mentions.append({
                "id": relation_id(source, relation["predicate"], target),
                "source_id": source, "target_id": target, "predicate": relation["predicate"],
                "chunk_id": chunk_id, "description": relation["descriptions"][i],
                "strength": relation["strengths"][i], "subject_name": subject,
                "object_name": obj,
            })


def _moved_end(end_id: str, name: str, into_id: str, from_id: str, from_key: str) -> str:
    """The entity this end of a mention belongs to once the merge is undone."""
    return from_id if end_id == into_id and normalize_name(name) == from_key else end_id


async def undo_merge(
    store: Store, merge_id: str, merger: Mergers, embedder: EmbeddingCaller,
    type_labels: TypeLabels | None = None,
) -> UnmergeReport:
    """Split a merged-away entity out again, in one transaction, and re-describe both sides;
    with `type_labels`, the restored entity gets the label of its own type in it."""
    footprint = await _footprint(store, merge_id)
    plan = plan_unmerge(footprint)
    steps = plan.steps(footprint)
    if type_labels is not None:
        steps.append(type_labels.step([footprint["from_id"], footprint["into_id"]]))
    await asyncio.to_thread(store.write_together, steps)
    touched_relations = set(plan.detached) | {m["id"] for m in plan.moved_relation_mentions}
    existing = await asyncio.to_thread(
        store.read, "indexing/relations/existing_relations", ids=sorted(touched_relations)
    )
    entities = {footprint["from_id"], footprint["into_id"]} | _ends(plan.moved_relation_mentions)
    survivors = await asyncio.to_thread(
        store.read, "indexing/entities/existing_entities", ids=sorted(entities)
    )
    await refresh_entities(store, {row["id"] for row in survivors}, merger, embedder)
    await refresh_relations(store, {row["id"] for row in existing}, merger, embedder)
    return UnmergeReport(
        merge_id, footprint["from_id"], footprint["from_name"], footprint["into_name"],
        len(plan.restored_mentions), len(plan.moved_relation_mentions),
    )


def _ends(mentions: Sequence[Row]) -> set[str]:
    return {m[end] for m in mentions for end in ("source_id", "target_id")}


async def _footprint(store: Store, merge_id: str) -> Row:
    rows = await asyncio.to_thread(store.read, "indexing/merges/merge_footprint", id=merge_id)
    if not rows:
        raise InputError(
            f"No merge with id {merge_id!r} in the graph; list them with `graphrag-neo4j merges`."
        )
    footprint = rows[0]
    if footprint["undone"]:
        raise InputError(f"Merge {merge_id} was already undone; nothing to do.")
    if footprint["decided_by"] not in UNDOABLE_DECIDERS:
        raise InputError(
            f"Merge {merge_id} folded the spelling {footprint['from_name']!r} by name"
            " normalisation; the names are the same once normalised, so it cannot be undone."
        )
    return footprint
