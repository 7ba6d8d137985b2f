"""Pruning a fast-extraction batch: weak edges, concept hubs, unconnected concepts."""

from __future__ import annotations

from graphrag_neo4j.indexing.extraction.fast.pruning import Edge, prune
from graphrag_neo4j.settings import FastExtractionSettings

CO = "co-occurs with"


def test_weak_edges_hubs_and_unconnected_concepts_go() -> None:
    # "thing" is a concept linked to everything; "Scrooge" is a person linked to as much.
    edges = [Edge("thing", CO, f"p{i}", 1.0) for i in range(8)]
    edges += [Edge("Scrooge", CO, f"p{i}", 1.0) for i in range(8)]
    edges += [Edge("p0", CO, "p1", 0.25), Edge("p0", CO, "p1", 0.25), Edge("p2", CO, "lamp", 0.25)]
    types = {"thing": "concept", "Scrooge": "person", "lamp": "concept", "loner": "person"}
    types |= {f"p{i}": "person" for i in range(8)}
    settings = FastExtractionSettings(min_edge_weight=1.0, hub_degree_percentile=80)
    pruned = prune(edges, types, {"thing", "lamp"}, settings)
    assert "thing" not in pruned.nodes  # a concept hub
    assert {"Scrooge", "loner"} <= pruned.nodes  # named entities stay, even unconnected
    assert "lamp" not in pruned.nodes  # its only edge was too weak
    assert ("p0", CO, "p1") not in pruned.edges  # 0.5 in all
    assert ("Scrooge", CO, "p3") in pruned.edges
    assert not any("thing" in (s, t) for s, _, t in pruned.edges)


def test_percentile_100_keeps_hubs() -> None:
    edges = [Edge("thing", CO, f"p{i}", 1.0) for i in range(8)]
    types = {"thing": "concept"} | {f"p{i}": "person" for i in range(8)}
    settings = FastExtractionSettings(hub_degree_percentile=100)
    assert "thing" in prune(edges, types, {"thing"}, settings).nodes
