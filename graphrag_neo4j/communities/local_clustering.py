"""Communities after a delete or unmerge: the stored hierarchy less what left the graph; Leiden
runs only for entities that have no community yet.

A delete touches a few pages' entities, yet Leiden over the whole graph reshuffles communities
far from them, and every reshuffled community's summary must be embedded again (16 s of a
delete on a 126-page manual, 11 of them embedding). So an incremental build keeps every stored
community, less its members that left the graph or have no relation left (a community left
empty goes). An entity that is in no stored community (one an unmerge restored) is clustered
with Leiden together with the top communities its relations lead into, which are re-clustered
whole. `communities --build` re-clusters the whole graph, as the first build did.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from graphrag_neo4j.communities.ids import StoredCommunity
from graphrag_neo4j.communities.leiden import Cluster, Edge, Hierarchy, cluster_graph
from graphrag_neo4j.settings import CommunitySettings


def neighbours(edges: Iterable[Edge]) -> dict[str, set[str]]:
    """The other end of every edge touching each node (a self-loop counts no neighbour)."""
    found: dict[str, set[str]] = defaultdict(set)
    for source, target, _ in edges:
        found[source].add(target)
        found[target].add(source)
    for node, others in found.items():
        others.discard(node)
    return found


def recluster_changed(edges: list[Edge], stored: list[StoredCommunity],
                      settings: CommunitySettings) -> tuple[Hierarchy, int]:
    """The hierarchy after a change, and how many top communities were kept (pruned).

    Kept: every stored top community with its subtree, members limited to the entities of
    `edges`, unless an entity of `edges` in no stored community relates to it: then it is
    reopened, and Leiden clusters its members with those entities.
    """
    around = neighbours(edges)
    tops = {c.id: c for c in stored if c.level == 0}
    placed = {member: cid for cid, c in tops.items() for member in c.members if member in around}
    unplaced = sorted(node for node in around if node not in placed)
    reopened = {placed[other] for node in unplaced for other in around[node] if other in placed}
    open_nodes = set(unplaced) | {m for cid in reopened for m in tops[cid].members}
    hierarchy = cluster_graph(
        [e for e in edges if e[0] in open_nodes and e[1] in open_nodes], settings)
    kept = set(tops) - reopened
    _add_subtrees(hierarchy, stored, kept, set(around))
    return hierarchy, len(kept)


def _add_subtrees(hierarchy: Hierarchy, stored: list[StoredCommunity], roots: set[str],
                  present: set[str]) -> None:
    """Add the stored communities under `roots` (roots included) to `hierarchy`, new keys,
    members limited to `present`; a community left empty is dropped with its subtree."""
    children: dict[str | None, list[StoredCommunity]] = defaultdict(list)
    for community in stored:
        children[community.parent].append(community)
    next_key = max(hierarchy.clusters, default=-1) + 1
    queue: list[tuple[StoredCommunity, int | None]] = sorted(
        ((c, None) for c in stored if c.id in roots), key=lambda item: item[0].id)
    while queue:
        community, parent_key = queue.pop(0)
        members = community.members & present
        if not members:
            continue
        hierarchy.clusters[next_key] = Cluster(next_key, community.level, parent_key,
                                               frozenset(members))
        queue.extend((child, next_key)
                     for child in sorted(children[community.id], key=lambda c: c.id))
        next_key += 1


