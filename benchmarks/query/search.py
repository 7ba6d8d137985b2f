"""Local retrieval latency (vector search + retrieval query) against a bare vector search.

Index the MuSiQue triplets first (`graphrag-neo4j index --triplets .../musique/corpus.jsonl`),
then run: .venv/bin/python benchmarks/query/search.py [--questions PATH] [--runs 3]
The questions are embedded once (cached); the LLM is a fake, because only retrieval is timed.
Target: p50 < 100 ms and < 5x the bare `db.index.vector.queryNodes` call.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.query.local.search import retrieval_params
from graphrag_neo4j.settings import load_settings

QUESTIONS = Path(__file__).resolve().parents[3] / "shared/data/musique/questions_dev.json"


def percentile(values: list[float], share: float) -> float:
    """The `share` percentile of `values` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    """Time both retrievals over every question and print p50/p95 and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    questions = [q["question"] for q in json.loads(args.questions.read_text())]
    settings = load_settings()
    with GraphRAG(settings, llm=FakeChatModel(rules=[])) as rag:
        vectors = asyncio.run(rag.embedder.embed(questions))
        search = settings.search
        top_k = search.local.top_k_entities
        rag.store.read("query/local_retrieval", **retrieval_params(search, vectors[0]))  # warm-up
        local, bare = [], []
        for _ in range(args.runs):
            for vector in vectors:
                started = time.perf_counter()
                rag.store.read("query/local_retrieval", **retrieval_params(search, vector))
                local.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                rag.store.read("bench/bare_entity_vector_search", top_k=top_k,
                               query_vector=vector)
                bare.append((time.perf_counter() - started) * 1000)
        counts = rag.counts()
    print(f"graph: {counts}")
    print(f"{len(questions)} questions x {args.runs} runs, local.top_k_entities={top_k}")
    for name, values in (("local retrieval", local), ("bare vector search", bare)):
        print(f"{name:<20} p50 {percentile(values, 0.5):7.1f} ms   p95"
              f" {percentile(values, 0.95):7.1f} ms   mean {statistics.mean(values):7.1f} ms")
    ratio = percentile(local, 0.5) / percentile(bare, 0.5)
    print(f"ratio p50 local / bare: {ratio:.1f}x (target < 5x); p50 target < 100 ms")


if __name__ == "__main__":
    main()
