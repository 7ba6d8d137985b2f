"""Workspaces: retrieve-only latency of one workspace with 1 vs 2 loaded, and index memory each.

Run (on a test server you may wipe): .venv/bin/python -m benchmarks.query.workspaces [--passages N]
Indexes the MuSiQue triplets into workspace `bench_a`, times retrieve-only local, naive and
hops (no rerank) over the 50 dev questions; indexes the same corpus into `bench_b` and times
`bench_a` again; deletes `bench_b` and times `bench_a` a third time (the bracket shows how much
the shared machine's load moved). Embeddings are the deterministic fake ones: only the graph
and its indexes are timed. Then each workspace's indexes: size on disk by index (Community has
no per-index memory figure; an index's pages are what the page cache holds of it).
Target: p50 with 2 workspaces within 1.2x of 1.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks.query.search import QUESTIONS, percentile
from graphrag_neo4j.database.workspaces.catalog import delete_workspace
from graphrag_neo4j.database.workspaces.names import Workspace, workspace_of
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings, load_settings

CORPUS = QUESTIONS.parent / "corpus.jsonl"
METHODS = {"local": {}, "naive": {}, "hops": {"hops.rerank": False}}


def engine(settings: Settings, workspace: str) -> GraphRAG:
    """An engine of `workspace` with fake models (no answer call is made)."""
    return GraphRAG(settings, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings(),
                    workspace=workspace)


def index(settings: Settings, workspace: str, corpus: Path) -> float:
    """Index the triplet corpus into `workspace`; seconds taken."""
    started = time.perf_counter()
    with engine(settings, workspace) as rag:
        rag.index_triplets(corpus)
    return time.perf_counter() - started


def timed(settings: Settings, questions: list[str]) -> dict[str, float]:
    """Retrieve-only p50 ms of each method in `bench_a` over two passes of the questions
    (after one warm-up question)."""
    found = {}
    with engine(settings, "bench_a") as rag:
        for method, options in METHODS.items():
            rag.retrieve(questions[0], method, **options)
            spent = []
            for question in questions * 2:
                started = time.perf_counter()
                rag.retrieve(question, method, **options)
                spent.append((time.perf_counter() - started) * 1000)
            found[method] = percentile(spent, 0.5)
    return found


def index_sizes(settings: Settings) -> dict[str, dict[str, int]]:
    """Bytes on disk of each index, by workspace and index name."""
    with engine(settings, "") as rag:
        rows = rag.store.read("bench/index_ids")
    root = Path(settings.neo4j.home) / "data/databases" / settings.neo4j.database / "schema/index"
    found: dict[str, dict[str, int]] = {}
    for row in rows:
        folders = list(root.glob(f"*/{row['id']}"))
        size = sum(int(subprocess.run(["du", "-sb", str(f)], capture_output=True, text=True,
                                      check=True).stdout.split()[0]) for f in folders)
        name = workspace_of(row["name"])
        canonical = Workspace(name).canonical(row["name"]) or row["name"]
        found.setdefault(name or "default", {})[canonical] = size
    return found


def main() -> None:
    """Index, time with one and two workspaces, and print the ratios and index sizes."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--passages", type=int, default=0, help="0 = the whole corpus")
    parser.add_argument("--sizes-only", action="store_true", help="only the index sizes (run"
                        " after `neo4j stop` and `start`: a clean stop writes the indexes out)")
    args = parser.parse_args()
    settings = load_settings()
    if args.sizes_only:
        print_sizes(index_sizes(settings))
        return
    questions = [q["question"] for q in json.loads(QUESTIONS.read_text())]
    corpus = CORPUS
    if args.passages:
        lines = CORPUS.read_text(encoding="utf-8").splitlines()[: args.passages]
        corpus = Path(tempfile.mkdtemp()) / "corpus.jsonl"
        corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with engine(settings, "bench_b") as rag:
        delete_workspace(rag.store)
    with engine(settings, "bench_a") as rag:
        indexed = rag.counts()["documents"] > 0
    if not indexed:  # kept from an earlier run: the same corpus
        print(f"index bench_a: {index(settings, 'bench_a', corpus):.0f} s")
    one = timed(settings, questions)
    print(f"1 workspace p50 ms: {one}")
    print(f"index bench_b: {index(settings, 'bench_b', corpus):.0f} s")
    two = timed(settings, questions)
    print(f"2 workspaces p50 ms: {two}")
    with engine(settings, "bench_b") as rag:
        delete_workspace(rag.store)
    again = timed(settings, questions)
    print(f"1 workspace again p50 ms: {again}")
    for method in METHODS:
        base = (one[method] + again[method]) / 2
        print(f"{method:<6} 2 vs 1 workspace: {two[method] / base:.2f}x"
              f" (1: {one[method]:.1f} / {again[method]:.1f} ms, 2: {two[method]:.1f} ms)")


def print_sizes(sizes: dict[str, dict[str, int]]) -> None:
    """Each workspace's indexes: the total and each one, in MB."""
    for name, by_index in sizes.items():
        total = sum(by_index.values())
        listed = ", ".join(f"{index_name} {size / 1e6:.2f}"
                           for index_name, size in sorted(by_index.items()))
        print(f"indexes of {name}: {total / 1e6:.1f} MB ({listed})")


if __name__ == "__main__":
    main()
