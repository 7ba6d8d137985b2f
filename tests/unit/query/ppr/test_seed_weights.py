"""The walk's restart weights: shares of passages and entities, specificity, min-max scores."""

from __future__ import annotations

import pytest

from graphrag_neo4j.query.ppr.ranking import ENTITY, PASSAGE, neighbourhood, seed_weights
from graphrag_neo4j.query.ppr.seeds import Seeds, strongest
from graphrag_neo4j.settings import PprSearchSettings

PASSAGES = [{"chunk_id": "c1", "score": 0.9}, {"chunk_id": "c2", "score": 0.7},
            {"chunk_id": "c3", "score": 0.5}]


def test_passages_and_entities_share_the_restarts() -> None:
    seeds = Seeds({"rare": 0.8, "common": 0.8}, PASSAGES)
    weights = seed_weights(seeds, {"rare": 1, "common": 4}, PprSearchSettings(passage_share=0.3))
    assert sum(weights.values()) == pytest.approx(1.0)
    assert weights[(ENTITY, "rare")] == pytest.approx(0.7 * 0.8)  # 4 times the common one's
    assert weights[(ENTITY, "common")] == pytest.approx(0.7 * 0.2)
    # Min-max: the best passage 1, the middle one 0.5, the last 0 (no restart there).
    assert weights[(PASSAGE, "c1")] == pytest.approx(0.3 * 2 / 3)
    assert weights[(PASSAGE, "c2")] == pytest.approx(0.3 / 3)
    assert weights[(PASSAGE, "c3")] == 0.0


def test_a_group_without_seeds_leaves_its_share_to_the_other() -> None:
    settings = PprSearchSettings(passage_share=0.5)
    only_passages = seed_weights(Seeds({}, PASSAGES[:1]), {}, settings)
    assert only_passages == {(PASSAGE, "c1"): 1.0}
    only_entities = seed_weights(Seeds({"e": 0.4}, []), {"e": 2}, settings)
    assert only_entities == {(ENTITY, "e"): 1.0}
    assert seed_weights(Seeds({}, []), {}, settings) == {}


def test_an_entity_keeps_its_best_weight() -> None:
    assert strongest([("a", 0.2), ("b", 0.5), ("a", 0.9), ("b", 0.1)]) == {"a": 0.9, "b": 0.5}


def test_the_neighbourhood_row_keeps_passages_and_entities_apart() -> None:
    # A chunk and an entity with the same id are two nodes.
    row = {"nodes": [{"id": "x", "passage": True, "degree": 1, "passages": 0},
                     {"id": "x", "passage": False, "degree": 2, "passages": 1},
                     {"id": "y", "passage": False, "degree": 1, "passages": 0}],
           "edges": [{"source": "x", "target": "x", "passage": True},
                     {"source": "x", "target": "y", "passage": False}]}
    around = neighbourhood(row)
    assert around.keys == [(PASSAGE, "x"), (ENTITY, "x"), (ENTITY, "y")]
    assert list(around.graph.edges) == [(0, 1), (1, 2)]
    assert list(around.graph.degrees) == [1, 2, 1] and around.passages_of == {"x": 1, "y": 0}
