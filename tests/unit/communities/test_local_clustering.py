"""Communities after a delete: stored ones kept less what left; Leiden only for the unplaced."""

from __future__ import annotations

from graphrag_neo4j.communities.ids import StoredCommunity, assign_ids
from graphrag_neo4j.communities.leiden import Edge, Hierarchy, cluster_graph, undirected
from graphrag_neo4j.communities.local_clustering import recluster_changed
from graphrag_neo4j.settings import CommunitySettings
from tests.unit.communities.test_leiden import clique, layered_graph, membership


def stored_from(hierarchy: Hierarchy) -> list[StoredCommunity]:
    """The communities a full build would leave in the graph."""
    ids = assign_ids(hierarchy, []).ids
    return [StoredCommunity(ids[c.key], c.level, c.members,
                            ids[c.parent] if c.parent is not None else None)
            for c in hierarchy.clusters.values()]


def without(edges: list[Edge], *nodes: str) -> list[Edge]:
    return [e for e in edges if e[0] not in nodes and e[1] not in nodes]


def nests(hierarchy: Hierarchy) -> bool:
    return all(c.members <= hierarchy.clusters[c.parent].members
               and c.level == hierarchy.clusters[c.parent].level + 1
               for c in hierarchy.clusters.values() if c.parent is not None)


def test_an_unchanged_graph_keeps_every_community() -> None:
    settings = CommunitySettings()
    edges = layered_graph()
    full = cluster_graph(edges, settings)
    again, kept = recluster_changed(edges, stored_from(full), settings)
    assert membership(again) == membership(full) and kept == len(full.at_level(0))


def test_a_deletion_drops_the_entity_from_its_communities_and_keeps_the_rest() -> None:
    settings = CommunitySettings()
    edges = layered_graph()
    full = cluster_graph(edges, settings)
    gone = "a0"  # in the 18-member top community and in one of its level-1 children
    after, kept = recluster_changed(without(edges, gone), stored_from(full), settings)
    expected = {(level, members - {gone}) for level, members in membership(full)}
    assert membership(after) == expected and kept == len(full.at_level(0)) and nests(after)


def test_an_entity_left_without_relations_leaves_and_an_emptied_community_goes() -> None:
    settings = CommunitySettings()
    edges = undirected([*clique("a", 4), ("x", "y", 1.0)])
    full = cluster_graph(edges, settings)
    after, _ = recluster_changed(without(edges, "y"), stored_from(full), settings)
    assert membership(after) == {(0, frozenset(f"a{i}" for i in range(4)))}


def test_a_new_entity_is_clustered_with_the_communities_it_relates_to_and_no_others() -> None:
    settings = CommunitySettings()
    edges = undirected(clique("a", 5) + clique("b", 5) + clique("c", 5) + [("a0", "b0", 0.1)])
    full = cluster_graph(edges, settings)
    grown = undirected([*edges, ("new", "a1", 1.0), ("new", "a2", 1.0)])
    after, kept = recluster_changed(grown, stored_from(full), settings)
    assert "new" in after.entities and nests(after)
    assert kept == len(full.at_level(0)) - 1  # a's community was reopened, b's and c's not
    untouched = {(lvl, m) for lvl, m in membership(full) if not m & {"a1", "a2"}}
    assert untouched <= membership(after)


def test_with_no_stored_communities_it_clusters_as_a_full_run() -> None:
    settings = CommunitySettings()
    edges = layered_graph()
    after, kept = recluster_changed(edges, [], settings)
    assert kept == 0 and membership(after) == membership(cluster_graph(edges, settings))
