"""This engine beside Microsoft GraphRAG on the same book, through the same local stub.

Run (against a Neo4j of its own: the graph is wiped before each of this engine's runs):
  .venv/bin/python -m benchmarks.peers.compare --runs 3 [--no-profiler] [--reset]
                                               [--cases fast,llm] [--book FILE]
The first run installs Microsoft GraphRAG 3.3.0 into benchmarks/peers/.venv-msgraphrag.
One stub (benchmarks/openai_stub.py) serves both engines: chat from canned valid replies
(benchmarks/peers/canned.py), embeddings from the real offline MiniLM, so both pay for every
text they embed. Each engine runs its own command in a process of its own, alternating (who
goes first swaps every round), and is timed from start to exit (imports and model loads
included; this package is byte-compiled first, as pip compiles theirs):
- fast, cold: `graphrag-neo4j index BOOK --method fast --reports` into an empty graph with
  empty caches, beside `graphrag index --method fast` in a new project folder;
- fast, warm: the same again with the caches of that cold run kept (graph or output/ emptied);
- llm, cold: `--method llm` beside their `--method standard`, empty caches.
--no-profiler runs their pipeline without the tracemalloc profiler it wraps around every
workflow (their best). Both use their defaults otherwise, but chunk alike (1,200 tokens of
cl100k_base, 100 overlap), parse with the same spaCy model and call the LLM 25 at a time.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq
from rich.console import Console
from rich.table import Table

from benchmarks.openai_stub import Stub, StubConfig, serve_stub
from benchmarks.peers import canned
from benchmarks.peers.msgraphrag_env import HERE, REPO, ensure_venv, write_project
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.llm.providers import resolve_embeddings
from graphrag_neo4j.settings import Settings, load_settings

BOOK = REPO / "sample" / "a_christmas_carol.txt"
RUNS = HERE / "runs"
RUNNER = HERE / "msgraphrag_runner.py"
OURS, THEIRS = "graphrag-neo4j", "Microsoft GraphRAG 3.3.0"
METHODS = {"fast": ("fast", "fast"), "llm": ("llm", "standard")}  # case: (ours, theirs)
console = Console(width=180)


@dataclass
class Run:
    """One timed command and what the stub saw during it."""

    seconds: float
    llm_calls: int
    texts_embedded: int
    tokens_embedded: int
    sizes: dict[str, int]


@dataclass
class Side:
    """Every run of one engine in one case."""

    runs: list[Run] = field(default_factory=list)

    def seconds(self) -> list[float]:
        """The wall times in run order."""
        return [run.seconds for run in self.runs]


def _timed(command: list[str], env: dict[str, str], cwd: Path, stub: Stub) -> Run:
    counts = stub.counts
    before = (counts.replies, counts.embedded_texts, counts.embedded_tokens)
    started = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        log = cwd / "failed.log"
        log.write_text(done.stdout + done.stderr, encoding="utf-8")
        raise SystemExit(f"{' '.join(command[:4])} failed (exit {done.returncode}); see {log}.")
    return Run(seconds, counts.replies - before[0], counts.embedded_texts - before[1],
               counts.embedded_tokens - before[2], {})


def _our_env(stub: Stub, cache: Path) -> dict[str, str]:
    hosted = {
        "GRAPHRAG_LLM__PROVIDER": "openai", "GRAPHRAG_LLM__BASE_URL": stub.base_url,
        "GRAPHRAG_LLM__API_KEY": "stub", "GRAPHRAG_LLM__MODEL": "stub-model",
        "GRAPHRAG_LLM__CONCURRENCY": "25",
        "GRAPHRAG_EMBEDDING__PROVIDER": "openai", "GRAPHRAG_EMBEDDING__BASE_URL": stub.base_url,
        "GRAPHRAG_EMBEDDING__API_KEY": "stub", "GRAPHRAG_EMBEDDING__MODEL": "stub-embedder",
        "GRAPHRAG_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO),
    }  # fmt: skip
    return {**os.environ, **hosted}


def _their_env() -> dict[str, str]:
    # litellm would fetch its price list from the internet at import; the copy it ships will do.
    return {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "PYTHONPATH": ""}


def run_ours(store: Store, stub: Stub, book: Path, method: str, cache: Path) -> Run:
    """Index the book into an emptied graph with `cache` as the cache folder."""
    store.run_autocommit("database/delete_all")
    command = [sys.executable, "-m", "graphrag_neo4j", "index", str(book), "--method", method,
               "--reports"]
    cache.mkdir(parents=True, exist_ok=True)
    run = _timed(command, _our_env(stub, cache), cache, stub)
    counts = store.read("database/count_graph")[0]
    run.sizes = {k: int(counts[k]) for k in ("chunks", "entities", "relations", "communities")}
    return run


def run_theirs(python: Path, stub: Stub, book: Path, method: str, root: Path,
               no_profiler: bool) -> Run:
    """Index the book in project folder `root` (made when absent; output/ emptied first)."""
    if not root.exists():
        write_project(root, book, stub.base_url)
    shutil.rmtree(root / "output", ignore_errors=True)
    command = [str(python), str(RUNNER), str(root), method, *(["--no-profiler"] * no_profiler)]
    run = _timed(command, _their_env(), root, stub)
    tables = {"chunks": "text_units", "entities": "entities", "relations": "relationships",
              "communities": "communities"}
    run.sizes = {k: pq.read_metadata(root / "output" / f"{t}.parquet").num_rows
                 for k, t in tables.items()}
    return run


def _row(table: Table, label: str, side: Side) -> None:
    seconds = side.seconds()
    last = side.runs[-1]
    sizes = ", ".join(f"{v:,} {k}" for k, v in last.sizes.items())
    table.add_row(label, " ".join(f"{s:.1f}" for s in seconds), f"{min(seconds):.1f}",
                  f"{statistics.median(seconds):.1f}", str(last.llm_calls),
                  f"{last.texts_embedded:,}", f"{last.tokens_embedded:,}", sizes)


def report(results: dict[str, dict[str, Side]], no_profiler: bool) -> None:
    """One table per case, then the ratios (theirs / ours: above 1 means ours is faster)."""
    profiler = "their profiler off" if no_profiler else "their profiler on (as shipped)"
    ratios = Table(title=f"Microsoft GraphRAG / graphrag-neo4j wall time ({profiler})")
    for header in ("case", "min ratio", "median ratio"):
        ratios.add_column(header, justify="right")
    for case, sides in results.items():
        table = Table(title=f"{case}: seconds per run, start to exit ({profiler})")
        for header in ("engine", "runs s", "min s", "median s", "LLM calls", "texts embedded",
                       "tokens embedded", "output (last run)"):
            table.add_column(header, justify="left" if header == "engine" else "right")
        for label in (OURS, THEIRS):
            _row(table, label, sides[label])
        console.print(table)
        ours, theirs = sides[OURS].seconds(), sides[THEIRS].seconds()
        ratios.add_row(case, f"{min(theirs) / min(ours):.2f}",
                       f"{statistics.median(theirs) / statistics.median(ours):.2f}")
    console.print(ratios)


def benchmark(args: argparse.Namespace, store: Store, stub: Stub, python: Path) -> None:
    """Alternate the engines `args.runs` times per case; print the tables."""
    cases = [c.strip() for c in args.cases.split(",")]
    names = [name for case in cases
             for name in ((f"{case}, cold", f"{case}, warm") if case == "fast"
                          else (f"{case}, cold",))]
    results = {name: {OURS: Side(), THEIRS: Side()} for name in names}
    shutil.rmtree(RUNS, ignore_errors=True)
    for round_ in range(args.runs):
        for case in cases:
            ours_method, their_method = METHODS[case]
            folder = RUNS / f"{case}-{round_}"
            sides = [OURS, THEIRS] if round_ % 2 == 0 else [THEIRS, OURS]
            for side in sides:
                reruns = 2 if case == "fast" else 1
                for rerun in range(reruns):
                    name = f"{case}, {'warm' if rerun else 'cold'}"
                    console.print(f"round {round_ + 1}/{args.runs}: {side}, {name}", end=" ")
                    if side == OURS:
                        run = run_ours(store, stub, args.book, ours_method, folder / "ours")
                    else:
                        run = run_theirs(python, stub, args.book, their_method,
                                         folder / "theirs", args.no_profiler)
                    console.print(f"{run.seconds:.1f} s")
                    results[name][side].runs.append(run)
    report(results, args.no_profiler)


def main() -> None:
    """Parse the options, start the stub and run the cases."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="Rounds per case (alternating).")
    parser.add_argument("--no-profiler", action="store_true",
                        help="Run Microsoft GraphRAG without its tracemalloc profiler.")
    parser.add_argument("--cases", default="fast,llm", help="fast, llm or both.")
    parser.add_argument("--book", type=Path, default=BOOK)
    parser.add_argument("--reset", action="store_true", help="Wipe a non-empty graph first.")
    args = parser.parse_args()
    python = ensure_venv()
    # Theirs runs from an installed package, byte-compiled by pip; ours from this checkout. Compile
    # it too, so an environment that writes no bytecode does not make ours compile every run.
    compileall.compile_dir(REPO / "graphrag_neo4j", quiet=1)
    settings = load_settings()
    embedder = resolve_embeddings(Settings(embedding={"provider": "offline"})).model
    with Store.connect(settings.neo4j) as store:
        counts = store.read("database/count_graph")[0]
        if any(counts.values()) and not args.reset:
            raise SystemExit(f"The graph at {settings.neo4j.uri} is not empty ({counts}); this"
                             " benchmark wipes it, so pass --reset (and point GRAPHRAG_NEO4J__*"
                             " at a server of its own).")
        with serve_stub(StubConfig(), canned.answer, embedder) as stub:
            benchmark(args, store, stub, python)


if __name__ == "__main__":
    main()
