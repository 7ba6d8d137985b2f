"""How cost grows with the corpus: fast indexing, communities and retrieve-only queries at
1k, 2k, 4k and 8k+ passages.

Run against a Neo4j of its own (each size wipes the graph, so --reset is required):
  .venv/bin/python benchmarks/scale/scale.py --reset [--sizes 1000 2000 4000 8000] [--queries 200]
Passages: the 2Wiki corpus (6,119) first, then MuSiQue's (1,890), then the book as one more
document, so 8,000 and more mixes all three. Each size runs in a process of its own (its peak
RSS, the process and its forked spaCy workers, is its own) into the emptied graph with a fresh
cache folder: `index --method fast`, communities with lazy reports (the default for a fast
graph: none written at build time), then `--queries` retrieve-only
questions per method (made from passage titles: "What is said about <title>?").

Per size: words, seconds per 1,000 words by indexing stage, peak RSS, the Neo4j data folder's
size, the community build's seconds by stage (Leiden, writes, extractive summaries and their
embeddings) and per community, query p50/p95 per method (`--out` keeps them as JSON). The
smallest size is the floor: each stage's s/1k words and each method's p50 is also printed as a
ratio to it (targets: within 1.3x and 2x at 8k).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.corpora import NO_LLM_OPTIONS, cold_cache, default_methods
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
SOURCES = (DATA / "2wiki" / "corpus.jsonl", DATA / "musique" / "corpus.jsonl")
BOOK = ROOT / "sample" / "a_christmas_carol.txt"
WARM_UP = 20  # questions asked untimed per method before the timed ones
console = Console(width=220)


@dataclass
class SizeResult:
    """What one size measured."""

    passages: int
    words: int = 0
    index_seconds: float = 0.0
    stage_seconds: dict[str, float] = field(default_factory=dict)
    community_seconds: float = 0.0
    community_stages: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: float = 0.0
    store_mb: float = 0.0  # the Neo4j data folder after this size (stores, indexes, logs)
    entities: int = 0
    relations: int = 0
    communities: int = 0
    query_ms: dict[str, list[float]] = field(default_factory=dict)  # method -> [p50, p95]


def corpus_slice(folder: Path, passages: int) -> list[Path]:
    """The first `passages` records of 2Wiki then MuSiQue, plus the book past their end."""
    out, taken = folder / f"passages-{passages}.jsonl", 0
    with out.open("w", encoding="utf-8") as sink:
        for source in SOURCES:
            with source.open(encoding="utf-8") as lines:
                for line in lines:
                    if taken >= passages:
                        break
                    record = json.loads(line)
                    sink.write(json.dumps({k: record[k] for k in ("id", "title", "text")}) + "\n")
                    taken += 1
    return [out, BOOK] if taken < passages else [out]


def folder_mb(folder: Path) -> float:
    """Megabytes of the files under `folder` (0 when it is not on this machine)."""
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run_size(passages: int, folder: Path, queries: int, methods: list[str]) -> SizeResult:
    """Index, cluster and query one size in this process."""
    result = SizeResult(passages)
    paths = corpus_slice(folder, passages)
    settings = load_settings()
    with GraphRAG(settings, console=Console(stderr=True, quiet=True)) as rag:
        rag.store.run_autocommit("database/delete_all")
        rag.run(rag.aensure_schema())
        started = time.perf_counter()
        stats, loaded = rag.index(paths, method="fast")
        result.index_seconds = time.perf_counter() - started
        result.stage_seconds = dict(stats.stage_seconds)
        result.words = sum(len(d.text.split()) for d in loaded.documents)
        started = time.perf_counter()
        # Lazy, as a fast graph's build is by default: no report is written at build time, and
        # global search reads only the communities nearest the question ('none' would make it
        # read the whole level: map-reduce over every summary, linear in the corpus).
        built = rag.build_communities(reports="lazy")
        result.community_seconds = time.perf_counter() - started
        result.community_stages = dict(built.stage_seconds)
        counts = rag.counts()
        result.entities, result.relations = counts["entities"], counts["relations"]
        result.communities = counts["communities"]
        rows = rag.store.read("indexing/documents/list_documents", skip=0, limit=queries)
        questions = [f"What is said about {row['title']}?" for row in rows]
        for method in methods:
            # Untimed first: a server started for the run, and the method's first reads,
            # would otherwise make the smallest size look slow and every ratio look good.
            for question in questions[:WARM_UP]:
                rag.retrieve(question, method, **NO_LLM_OPTIONS.get(method, {}))
            times = []
            for question in questions:
                begun = time.perf_counter()
                rag.retrieve(question, method, **NO_LLM_OPTIONS.get(method, {}))
                times.append(1000 * (time.perf_counter() - begun))
            result.query_ms[method] = [statistics.median(times), _percentile(times, 0.95)]
    result.store_mb = folder_mb(Path(settings.neo4j.home).expanduser() / "data")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    result.peak_rss_mb = max(own, workers) / 1024
    return result


def _child(passages: int, args: argparse.Namespace, folder: Path) -> SizeResult:
    command = [sys.executable, "-m", "benchmarks.scale.scale", "--one", str(passages), "--folder",
               str(folder), "--queries", str(args.queries), "--methods", *args.methods]
    env = {**os.environ, "GRAPHRAG_CACHE_DIR": str(cold_cache(folder, str(passages)))}
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env,
                          cwd=ROOT)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        raise SystemExit(f"{passages} passages failed (exit {done.returncode}): {tail[0]}")
    return SizeResult(**json.loads(lines[-1]))


def _tables(results: list[SizeResult], methods: list[str]) -> list[Table]:
    floor = results[0]
    stages = list(dict.fromkeys(s for r in results for s in r.stage_seconds))

    def per_k(r: SizeResult, stage: str) -> float:
        return 1000 * r.stage_seconds.get(stage, 0.0) / max(1, r.words)

    index = Table(title="Fast indexing: seconds per 1,000 words by stage (x the smallest size)")
    for column in ("passages", "words", "index s", *stages, "peak RSS MB", "store MB",
                   "entities", "relations", "communities"):
        index.add_column(column, justify="right")
    for r in results:
        cells = [f"{per_k(r, s):.2f} ({per_k(r, s) / per_k(floor, s):.2f}x)"
                 if per_k(floor, s) else f"{per_k(r, s):.2f}" for s in stages]
        index.add_row(f"{r.passages:,}", f"{r.words:,}", f"{r.index_seconds:.0f}", *cells,
                      f"{r.peak_rss_mb:,.0f}", f"{r.store_mb:,.0f}", f"{r.entities:,}",
                      f"{r.relations:,}", f"{r.communities:,}")
    community_stages = list(dict.fromkeys(s for r in results for s in r.community_stages))
    communities = Table(title="Communities (lazy reports, none written): seconds by stage, "
                              "per community (x the smallest size)")
    for column in ("passages", "communities", *community_stages, "all s", "ms per community"):
        communities.add_column(column, justify="right")

    def per_community(r: SizeResult) -> float:
        return 1000 * r.community_seconds / max(1, r.communities)

    for r in results:
        communities.add_row(
            f"{r.passages:,}", f"{r.communities:,}",
            *(f"{r.community_stages.get(s, 0.0):.1f}" for s in community_stages),
            f"{r.community_seconds:.1f}",
            f"{per_community(r):.0f} ({per_community(r) / per_community(floor):.2f}x)")
    queries = Table(title="Retrieve-only ms per method: p50 / p95 (p50 x the smallest size)")
    queries.add_column("passages", justify="right")
    for method in methods:
        queries.add_column(method, justify="right")
    for r in results:
        queries.add_row(f"{r.passages:,}", *(
            f"{r.query_ms[m][0]:,.0f} / {r.query_ms[m][1]:,.0f} "
            f"({r.query_ms[m][0] / floor.query_ms[m][0]:.2f}x)" for m in methods))
    return [index, communities, queries]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reset", action="store_true", help="wipe the graph (required)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 2000, 4000, 8000])
    parser.add_argument("--queries", type=int, default=200, help="questions per method")
    parser.add_argument("--methods", nargs="*", default=default_methods())
    parser.add_argument("--out", type=Path, help="also write each size's figures here (JSON)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(asdict(run_size(args.one, args.folder, args.queries, args.methods))))
        return
    if not args.reset:
        raise SystemExit("Each size wipes the graph: pass --reset, with GRAPHRAG_NEO4J__* "
                         "pointing at a server of the benchmark's own.")
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for passages in sorted(args.sizes):
            console.print(f"[dim]{passages:,} passages...[/dim]")
            results.append(_child(passages, args, Path(folder)))
            if args.out:
                args.out.write_text(json.dumps([asdict(r) for r in results], indent=1))
            for table in _tables(results, args.methods):
                console.print(table)


if __name__ == "__main__":
    main()
