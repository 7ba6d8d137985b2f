"""Hops subgraph expansion on MuSiQue: breadth-first Cypher steps vs the notebook's scipy matrices.

Needs a Neo4j holding the MuSiQue triplet corpus (`graphrag-neo4j index --triplets
../shared/data/musique/corpus.jsonl`) and the embedder it was indexed with:
  .venv/bin/python benchmarks/query/hops_expansion.py [--degree 1 2] [--limit 100]
For each of the 50 dev questions, the seeds are the hops seeds without an LLM (entities nearest
to the capitalised mentions, relations nearest to the question). Both ways must expand to the
same relation set; the figures are per question: expansion alone, and expansion plus ranking the
candidates by similarity in Neo4j (what hops search needs). scipy also pays a one-off load of
every RELATED edge and the matrix products.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table
from scipy.sparse import csr_matrix  # type: ignore[import-untyped]

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.hops.mentions import capitalised_mentions
from graphrag_neo4j.query.hops.ranking import expand_entities
from graphrag_neo4j.query.retrieval.candidates import ann_candidates

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
QUESTIONS = DATA / "musique" / "questions_dev.json"
ALL = 10**9


class NotebookMatrices:
    """The notebook's adjacency matrices over the whole graph, built once."""

    def __init__(self, store: Store, degree: int) -> None:
        started = time.perf_counter()
        rows = store.read("bench/entity_relation_incidence")
        self.load_s = time.perf_counter() - started
        started = time.perf_counter()
        entities = sorted({row[key] for row in rows for key in ("source_id", "target_id")})
        self.entity_index = {entity: i for i, entity in enumerate(entities)}
        self.relation_ids = [row["id"] for row in rows]
        self.relation_index = {rid: i for i, rid in enumerate(self.relation_ids)}
        cells = [(self.entity_index[row[key]], i)
                 for i, row in enumerate(rows) for key in ("source_id", "target_id")]
        r, c = zip(*cells, strict=True)
        incidence = csr_matrix((np.ones(len(r)), (r, c)), shape=(len(entities), len(rows)))
        entity_adj = incidence @ incidence.T
        relation_adj = incidence.T @ incidence
        entity_adj_d, relation_adj_d = entity_adj, relation_adj
        for _ in range(degree - 1):
            entity_adj_d = entity_adj_d @ entity_adj
            relation_adj_d = relation_adj_d @ relation_adj
        self.entity_relations = (entity_adj_d @ incidence).tocsr()
        self.relation_relations = relation_adj_d.tocsr()
        self.build_s = time.perf_counter() - started

    def expand(self, entity_ids: Sequence[str], relation_ids: Sequence[str]) -> set[str]:
        """Relation ids of the expanded subgraph, by rows of the target-degree matrices."""
        found: set[int] = set()
        for entity in entity_ids:
            if entity in self.entity_index:
                found.update(self.entity_relations[self.entity_index[entity]].indices.tolist())
        for relation in relation_ids:
            if relation in self.relation_index:
                row = self.relation_relations[self.relation_index[relation]]
                found.update(row.indices.tolist())
        return {self.relation_ids[i] for i in found}


Seeds = tuple[list[float], list[str], list[dict[str, Any]]]


async def seeds(rag: GraphRAG, question: str) -> Seeds:
    """The question vector, matched entity ids and matched relation rows (k = 3 each)."""
    vector = await rag.embedder.embed_query(question)
    names = capitalised_mentions(question)
    vectors = await rag.embedder.embed(names) if names else []
    mentions = [{"text": n, "embedding": v} for n, v in zip(names, vectors, strict=True)]
    entities = rag.store.read("query/search/search_entities_by_vector", mentions=mentions, k=3,
                              candidates=ann_candidates(3)) if mentions else []
    relations = rag.store.read("query/search/search_relations_by_vector", embedding=vector, k=3,
                               candidates=ann_candidates(3))
    return vector, [row["id"] for row in entities], relations


async def cypher_expand(
    store: Store, entity_ids: list[str], relations: list[dict[str, Any]], vector: list[float],
    degree: int, limit: int,
) -> list[str]:
    """Breadth-first steps in Cypher, then the relations around the ball, ranked in Neo4j."""
    async def neighbours(ids: list[str]) -> set[str]:
        return {row["id"] for row in store.read("query/hops/entity_neighbours", ids=ids)}

    endpoints = {row[key] for row in relations for key in ("source_id", "target_id")}
    ball = await expand_entities(neighbours, set(entity_ids), endpoints, degree)
    rows = store.read("query/hops/relations_around_entities", ids=sorted(ball), embedding=vector,
                      limit=limit)
    return [row["id"] for row in rows]


def _ms(values: list[float]) -> str:
    return f"{1000 * statistics.fmean(values):.1f} / {1000 * statistics.median(values):.1f}"


async def run(degree: int, limit: int, console: Console) -> None:
    questions = [item["question"] for item in json.loads(QUESTIONS.read_text())]
    with GraphRAG(console=console) as rag:
        matrices = NotebookMatrices(rag.store, degree)
        cypher_s, scipy_s, scipy_ranked_s, sizes, mismatches = [], [], [], [], 0
        for question in questions:
            vector, entity_ids, relations = await seeds(rag, question)
            relation_ids = [row["id"] for row in relations]
            started = time.perf_counter()
            ranked = await cypher_expand(rag.store, entity_ids, relations, vector, degree, limit)
            cypher_s.append(time.perf_counter() - started)
            started = time.perf_counter()
            expanded = matrices.expand(entity_ids, relation_ids)
            scipy_s.append(time.perf_counter() - started)
            rows = rag.store.read("bench/score_relations", ids=sorted(expanded),
                                  embedding=vector, limit=limit)
            scipy_ranked_s.append(time.perf_counter() - started)
            sizes.append(len(expanded))
            everything = await cypher_expand(rag.store, entity_ids, relations, vector, degree, ALL)
            mismatches += set(everything) != expanded or [r["id"] for r in rows] != ranked
    table = Table(title=f"Hops expansion, degree {degree}, top {limit} candidates kept "
                        f"({len(questions)} MuSiQue questions; ms mean / median)")
    for column in ("way", "one-off", "expand", "expand + rank"):
        table.add_column(column, justify="left" if column == "way" else "right")
    table.add_row("Cypher BFS", "0", "-", _ms(cypher_s))
    table.add_row("scipy matrices", f"{1000 * (matrices.load_s + matrices.build_s):.0f} ms "
                  f"(load {1000 * matrices.load_s:.0f})", _ms(scipy_s), _ms(scipy_ranked_s))
    console.print(table)
    console.print(f"Expanded relations per question: mean {statistics.fmean(sizes):.0f}, "
                  f"max {max(sizes)}; questions where the two ways differ: {mismatches}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--degree", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    console = Console()
    for degree in args.degree:
        asyncio.run(run(degree, args.limit, console))


if __name__ == "__main__":
    main()
