"""Re-cluster only where the graph changed: a top community whose edges are all as they were
keeps its whole subtree; Leiden runs over the rest.

A delete touches a few pages' entities, yet Leiden over the whole graph reshuffles communities
far from them (and every reshuffled community's summary must be embedded again). Each top
community records a hash of the edges touching its members (`edges_hash`); on an incremental
build a community whose hash is unchanged cannot be clustered otherwise by the change, so it
is kept as stored, and hierarchical Leiden runs over the members of the others (and entities
that are new). With no hash stored (a graph built before), everything is re-clustered.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping

from graphrag_neo4j.communities.ids import StoredCommunity
from graphrag_neo4j.communities.leiden import Cluster, Edge, Hierarchy, cluster_graph
from graphrag_neo4j.settings import CommunitySettings


def incident_edges(edges: Iterable[Edge]) -> dict[str, list[Edge]]:
    """The edges touching each node (an edge is listed under both its ends)."""
    touching: dict[str, list[Edge]] = defaultdict(list)
    for edge in edges:
        touching[edge[0]].append(edge)
        if edge[1] != edge[0]:
            touching[edge[1]].append(edge)
    return touching


def edges_hash(members: Iterable[str], touching: Mapping[str, list[Edge]]) -> str:
    """A hash of the sorted edges with at least one end among `members`, weights included."""
    edges = sorted({edge for member in members for edge in touching.get(member, ())})
    digest = hashlib.sha256()
    for source, target, weight in edges:
        digest.update(f"{source}\x1f{target}\x1f{weight!r}\x1e".encode())
    return digest.hexdigest()[:32]


def top_edge_hashes(hierarchy: Hierarchy, edges: list[Edge]) -> dict[int, str]:
    """The edges hash of each top-level cluster, by cluster key."""
    touching = incident_edges(edges)
    return {c.key: edges_hash(c.members, touching) for c in hierarchy.at_level(0)}


def recluster_changed(edges: list[Edge], stored: list[StoredCommunity],
                      settings: CommunitySettings) -> tuple[Hierarchy, int]:
    """The hierarchy after a change, and how many top communities were kept as stored.

    Kept: every stored top community whose edges hash over `edges` equals the recorded one,
    with its stored subtree. The other entities of `edges` are clustered anew, among
    themselves; a kept community is reopened when one of those entities would otherwise
    have no edge left to cluster with.
    """
    touching = incident_edges(edges)
    kept = {c.id: c for c in stored if c.level == 0 and c.edges_hash is not None
            and c.edges_hash == edges_hash(c.members, touching)}
    kept = _reopen_for_stranded(kept, touching)
    in_kept = {member for community in kept.values() for member in community.members}
    changed = [edge for edge in edges if edge[0] not in in_kept and edge[1] not in in_kept]
    hierarchy = cluster_graph(changed, settings)
    _add_subtrees(hierarchy, stored, set(kept))
    return hierarchy, len(kept)


def _reopen_for_stranded(kept: dict[str, StoredCommunity], touching: Mapping[str, list[Edge]]
                         ) -> dict[str, StoredCommunity]:
    """Kept communities less those a re-clustered entity's every edge leads into."""
    while True:
        owner = {member: cid for cid, community in kept.items() for member in community.members}
        reopen: set[str] = set()
        for node, node_edges in touching.items():
            if node in owner:
                continue
            others = {b if a == node else a for a, b, _ in node_edges} - {node}
            if others and all(other in owner for other in others):
                reopen |= {owner[other] for other in others}
        if not reopen:
            return kept
        kept = {cid: c for cid, c in kept.items() if cid not in reopen}


def _add_subtrees(hierarchy: Hierarchy, stored: list[StoredCommunity], roots: set[str]) -> None:
    """Add the stored communities under `roots` (roots included) to `hierarchy`, new keys."""
    children: dict[str | None, list[StoredCommunity]] = defaultdict(list)
    for community in stored:
        children[community.parent].append(community)
    next_key = max(hierarchy.clusters, default=-1) + 1
    queue: list[tuple[StoredCommunity, int | None]] = sorted(
        ((c, None) for c in stored if c.id in roots), key=lambda item: item[0].id)
    while queue:
        community, parent_key = queue.pop(0)
        hierarchy.clusters[next_key] = Cluster(next_key, community.level, parent_key,
                                               community.members)
        queue.extend((child, next_key)
                     for child in sorted(children[community.id], key=lambda c: c.id))
        next_key += 1
