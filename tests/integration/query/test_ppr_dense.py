"""The walk's neighbourhood read stays within one query's memory where every node sits at the
`ppr.max_degree` bound (a dense technical graph passed the limit at 100 edges)."""

from __future__ import annotations

import time

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.settings import PprSearchSettings

pytestmark = pytest.mark.integration

BOUND = PprSearchSettings().max_degree
NODES = 3000
# Jumps whose sums rarely coincide, so two steps from a seed reach about BOUND^2 new edges.
JUMPS = [1 + 7 * j * j for j in range(BOUND // 2)]
# As many seeds as the defaults make: the nearest passages, named, nearest and fact entities.
SEEDS = 45


def test_the_neighbourhood_read_at_the_degree_bound_stays_within_a_query_s_memory(
    store: Store,
) -> None:
    store.run_script("bench/dense_entity_graph", nodes=NODES, jumps=JUMPS)
    seeds = [f"dense-{i * (NODES // SEEDS)}" for i in range(SEEDS)]
    started = time.monotonic()
    rows = store.read("query/ppr/seed_neighbourhood", entity_ids=seeds, chunk_ids=[],
                      max_degree=BOUND)
    seconds = time.monotonic() - started
    edges = len(rows[0]["edges"])
    # Every node has BOUND edges, so every seed and first neighbour is walked through (28,907
    # edges of the graph's 45,000 at 30; the bound is SEEDS * BOUND * (BOUND + 1)).
    assert SEEDS * BOUND * BOUND // 2 < edges <= SEEDS * BOUND * (BOUND + 1)
    assert seconds < 30
    one_more = store.read("query/ppr/seed_neighbourhood", entity_ids=seeds, chunk_ids=[],
                          max_degree=BOUND - 1)
    assert len(one_more[0]["edges"]) == 0  # above the bound nothing is walked through
