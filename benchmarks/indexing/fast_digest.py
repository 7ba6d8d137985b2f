"""A digest of the graph `index --method fast` writes: counts and a sha256 of every entity (name,
type, description), relation (ends, predicate, weight, description, chunks) and merge, so a change
meant to keep fast extraction's output (a refactor, a memory fix) is checked on real inputs.

Run against a Neo4j of its own (the graph is wiped, so --reset is required):
  .venv/bin/python benchmarks/indexing/fast_digest.py --reset [--musique N]
Inputs: the book (sample/a_christmas_carol.txt) and the first N MuSiQue passages (default 300)
of ../shared/data, each indexed alone in a fresh cache folder with fake embeddings (fast
extraction's graph does not read the vectors). Compare the printed lines before and after.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "sample" / "a_christmas_carol.txt"
MUSIQUE = ROOT.parent / "shared" / "data" / "musique" / "corpus.jsonl"


def _graph(store: Store) -> dict[str, list[Any]]:
    entities = store.read("indexing/entities/list_entities", skip=0, limit=1_000_000)
    return {
        "entities": sorted((e["name"], e["type"], e["description"] or "") for e in entities),
        "relations": sorted((r["source"], r["predicate"], r["target"], r["weight"],
                             r["description"], sorted(r["chunk_ids"]))
                            for r in store.read("interop/export_relations")),
        "merges": sorted((m["from_name"], m["into_name"], m["decided_by"], m["reason"])
                         for m in store.read("indexing/merges/list_merges")),
    }


def _digest(name: str, paths: list[Path]) -> None:
    settings = load_settings(extraction={"method": "fast"})
    with tempfile.TemporaryDirectory() as cache:
        tuned = settings.model_copy(update={"cache_dir": Path(cache)})
        with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
            rag.store.run_autocommit("database/delete_all")
            started = time.perf_counter()
            rag.index(paths)
            seconds = time.perf_counter() - started
            graph = _graph(rag.store)
    digest = hashlib.sha256(json.dumps(graph, sort_keys=True).encode()).hexdigest()[:16]
    counts = ", ".join(f"{part} {len(rows):,}" for part, rows in graph.items())
    print(f"{name}: {counts}; sha256 {digest} ({seconds:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reset", action="store_true", help="wipe the graph (required)")
    parser.add_argument("--musique", type=int, default=300, help="MuSiQue passages")
    args = parser.parse_args()
    if not args.reset:
        parser.error("--reset is required: each input wipes the graph")
    _digest("book", [BOOK])
    with tempfile.TemporaryDirectory() as folder:
        sliced = Path(folder) / "musique.jsonl"
        lines = MUSIQUE.read_text(encoding="utf-8").splitlines()[: args.musique]
        sliced.write_text("\n".join(lines) + "\n", encoding="utf-8")
        _digest(f"musique[:{args.musique}]", [sliced])


if __name__ == "__main__":
    main()
