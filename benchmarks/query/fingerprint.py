"""A fingerprint of everything in the graph, to show a run wrote nothing (not only counts)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from graphrag_neo4j.database.store import Store

_MODULUS = 2**256


@dataclass(frozen=True)
class Fingerprint:
    """How many nodes and relationships there are, and one hash of all their contents."""

    nodes: int
    relationships: int
    digest: str

    def __str__(self) -> str:
        return f"{self.nodes:,} nodes, {self.relationships:,} relationships, {self.digest[:16]}"


def graph_fingerprint(store: Store) -> Fingerprint:
    """Hash every node (labels, properties) and relationship (type, ends, properties).

    Each row is hashed alone and the hashes are summed, so the order rows arrive in does
    not matter and nothing is held in memory; any added, removed or changed label, property,
    node or relationship changes the digest."""
    nodes, node_sum = _summed(store, "bench/graph_node_contents")
    relationships, relationship_sum = _summed(store, "bench/graph_relationship_contents")
    digest = hashlib.sha256(f"{node_sum}:{relationship_sum}".encode()).hexdigest()
    return Fingerprint(nodes, relationships, digest)


def _summed(store: Store, statement: str) -> tuple[int, int]:
    count, total = 0, 0
    for row in store.stream(statement):
        text = json.dumps(row, sort_keys=True, default=str, ensure_ascii=False)
        total = (total + int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")) % _MODULUS
        count += 1
    return count, total
