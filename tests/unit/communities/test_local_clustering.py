"""Incremental re-clustering: untouched top communities kept whole, the changed part re-run."""

from __future__ import annotations

from graphrag_neo4j.communities.ids import StoredCommunity, assign_ids
from graphrag_neo4j.communities.leiden import Edge, Hierarchy, cluster_graph, undirected
from graphrag_neo4j.communities.local_clustering import recluster_changed, top_edge_hashes
from graphrag_neo4j.settings import CommunitySettings
from tests.unit.communities.test_leiden import clique, layered_graph, membership


def stored_from(hierarchy: Hierarchy, edges: list[Edge]) -> list[StoredCommunity]:
    """The communities a full build would leave in the graph, edges hashes included."""
    ids = assign_ids(hierarchy, []).ids
    hashes = top_edge_hashes(hierarchy, edges)
    return [StoredCommunity(ids[c.key], c.level, c.members,
                            ids[c.parent] if c.parent is not None else None, hashes.get(c.key))
            for c in hierarchy.clusters.values()]


def without(edges: list[Edge], *nodes: str) -> list[Edge]:
    return [e for e in edges if e[0] not in nodes and e[1] not in nodes]


def test_an_unchanged_graph_keeps_every_community_without_running_leiden() -> None:
    settings = CommunitySettings()
    edges = layered_graph()
    full = cluster_graph(edges, settings)
    again, kept = recluster_changed(edges, stored_from(full, edges), settings)
    assert membership(again) == membership(full)
    assert kept == len(full.at_level(0))


def test_a_deletion_keeps_the_communities_it_does_not_touch_with_their_subtrees() -> None:
    settings = CommunitySettings()
    edges = layered_graph()
    full = cluster_graph(edges, settings)
    after = without(edges, "s03_0")
    incremental, kept = recluster_changed(after, stored_from(full, edges), settings)
    touched = {c.members for c in full.clusters.values() if "s03_0" in c.members}
    untouched = membership(full) - {(c.level, c.members) for c in full.clusters.values()
                                    if c.members in touched}
    assert untouched <= membership(incremental)
    assert kept == len(full.at_level(0)) - 1
    # the changed community is clustered again, without the deleted entity
    assert (0, frozenset(f"s03_{i}" for i in range(1, 5))) in membership(incremental)
    # and the result nests like a full run's: each child inside its parent
    for cluster in incremental.clusters.values():
        if cluster.parent is not None:
            parent = incremental.clusters[cluster.parent]
            assert cluster.members <= parent.members and cluster.level == parent.level + 1


def test_a_changed_weight_reopens_the_communities_on_both_ends_of_the_edge() -> None:
    settings = CommunitySettings()
    edges = undirected(clique("a", 4) + clique("b", 4) + clique("c", 4) + [("a0", "b0", 1.0)])
    full = cluster_graph(edges, settings)
    heavier = undirected([(a, b, w + 1 if (a, b) == ("a0", "b0") else w) for a, b, w in edges])
    _, kept = recluster_changed(heavier, stored_from(full, edges), settings)
    assert kept == len(full.at_level(0)) - len({c.key for c in full.at_level(0)
                                                  if c.members & {"a0", "b0"}})


def test_without_recorded_hashes_everything_is_clustered_as_a_full_run_would() -> None:
    settings = CommunitySettings()
    edges = layered_graph()
    full = cluster_graph(edges, settings)
    unhashed = [StoredCommunity(c.id, c.level, c.members, c.parent)
                for c in stored_from(full, edges)]
    incremental, kept = recluster_changed(edges, unhashed, settings)
    assert kept == 0 and membership(incremental) == membership(full)


def test_an_entity_left_with_edges_only_into_kept_communities_reopens_them() -> None:
    settings = CommunitySettings()
    # x hangs off clique a; y, in another community, is deleted: x's community changes, and
    # if a stayed kept, x would have nobody to be clustered with.
    edges = undirected(clique("a", 5) + clique("b", 5) + [("a0", "x", 0.1), ("x", "y", 5.0),
                                                         ("y", "b0", 0.1)])
    full = cluster_graph(edges, settings)
    stored = stored_from(full, edges)
    incremental, _ = recluster_changed(without(edges, "y"), stored, settings)
    assert "x" in incremental.entities
