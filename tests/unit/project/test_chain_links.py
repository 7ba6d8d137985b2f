"""The chain-links benchmark: a pair counts as linked only when the graph says they share an
entity, and a question is linked only when each supporting passage reaches another."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from benchmarks.query.chain_links import linked_figures, supporting_passages
from graphrag_neo4j.settings import Settings


class _Store:
    """Shared entities by pair: a-b linked, c linked to nothing, d-e linked by zero rows."""

    def __init__(self) -> None:
        self.params: dict[str, Any] = {}

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        assert name == "bench/documents_sharing_entities"
        self.params = params
        shared = {("a", "b"): 2, ("d", "e"): 0}
        return [{"first": a, "second": b, "shared": shared[(a, b)]}
                for a, b in params["pairs"] if (a, b) in shared]


def test_pairs_and_questions_count_only_what_the_graph_links() -> None:
    store = _Store()
    rag = SimpleNamespace(store=store, settings=Settings())
    got = linked_figures(rag, [["a", "b"], ["a", "b", "c"], ["d", "e"]])  # type: ignore[arg-type]
    # Pairs a-b, a-c, b-c, d-e; only a-b shares an entity.
    assert got == {"pairs": 4, "linked": 1, "questions": 3, "chained": 1}
    assert store.params["max_passages"] == Settings().search.hops.bridge_max_passages


def test_questions_with_one_supporting_passage_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([
        {"supporting_passage_ids": ["a", "b", "a"]}, {"supporting_passage_ids": ["c"]}, {}]))
    assert supporting_passages(path) == [["a", "b"]]
