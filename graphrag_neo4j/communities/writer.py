"""Writes the community hierarchy: nodes, member and parent links, weights, in batched UNWINDs."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from graphrag_neo4j.communities.ids import IdAssignment, StoredCommunity
from graphrag_neo4j.communities.leiden import Hierarchy
from graphrag_neo4j.database.store import Store

# Member links per transaction: a top-level community alone may carry thousands of them.
MEMBERS_PER_BATCH = 5000


def read_stored(store: Store) -> list[StoredCommunity]:
    """The communities the graph holds now, with their current members."""
    return [
        StoredCommunity(str(row["id"]), int(row["level"] or 0), frozenset(row["members"]),
                        row["parent_id"])
        for row in store.read("communities/reports/list_community_state")
    ]


def _member_batches(rows: Sequence[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """Rows grouped so each transaction links about MEMBERS_PER_BATCH entities."""
    batch: list[dict[str, Any]] = []
    links = 0
    for row in rows:
        if batch and links + len(row["member_ids"]) > MEMBERS_PER_BATCH:
            yield batch
            batch, links = [], 0
        batch.append(row)
        links += len(row["member_ids"])
    if batch:
        yield batch


def structure_rows(hierarchy: Hierarchy, assignment: IdAssignment) -> list[dict[str, Any]]:
    """One row per community: id, level, size, parent id and sorted member ids."""
    rows = []
    for key, cluster in sorted(hierarchy.clusters.items()):
        parent = assignment.ids[cluster.parent] if cluster.parent is not None else None
        rows.append({
            "id": assignment.ids[key],
            "level": cluster.level,
            "size": len(cluster.members),
            "parent_id": parent,
            "member_ids": sorted(cluster.members),
        })
    return rows


def write_structure(store: Store, hierarchy: Hierarchy, assignment: IdAssignment) -> int:
    """Delete vanished communities, then write nodes, links and weights; idempotent.

    Kept communities keep their report properties; whether a report is still valid is decided
    later from its content hash.
    """
    store.write_rows(
        "communities/build/delete_communities", [{"id": i} for i in assignment.deleted]
    )
    rows = structure_rows(hierarchy, assignment)
    store.write_rows("communities/build/merge_communities", [
        {"id": r["id"], "level": r["level"], "size": r["size"]} for r in rows
    ])
    for batch in _member_batches(rows):
        store.write("communities/build/link_community_members", rows=[
            {"id": r["id"], "member_ids": r["member_ids"]} for r in batch
        ])
    store.write_rows("communities/build/link_community_parents", [
        {"id": r["id"], "parent_id": r["parent_id"]} for r in rows
    ])
    # Weights count chunks of big communities, so fewer rows per transaction.
    ids = [{"id": r["id"]} for r in rows]
    store.write_rows("communities/build/set_community_weights", ids, batch_size=200)
    return len(rows)

