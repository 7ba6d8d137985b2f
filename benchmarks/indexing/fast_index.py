"""Fast indexing (spaCy, no LLM): extraction speed against a bare nlp.pipe floor, the whole book
indexed by stage, and MuSiQue retrieval on a graph built from passage text vs the triplet graph.

Run against a Neo4j of its own (the graph is wiped, so --reset is required when it is not empty):
  .venv/bin/python benchmarks/indexing/fast_index.py --reset [--skip-musique | --skip-book]
                                               [--questions-limit N] [--musique-passages N]
1. Extraction: the book's chunks through a bare `nlp.pipe` (same model, components, batch
   size and processes: the floor), the text fast extraction parses (each window's overlap read
   once, line wraps folded) through it, then fast extraction; words/s (the chunks' words) of
   each and their ratio to the floor.
   Targets: >= 5,000 words/s and >= 0.7x the floor.
2. The whole book (../shared/data/christmas_carol/book.txt) indexed with method fast into an
   empty graph, with a fresh embedding cache: seconds per stage and in all (target < 90 s), the
   graph's size, the 10 best-connected entities, the expected characters and the
   Scrooge-Cratchit relation.
3. MuSiQue: corpus.jsonl indexed from its passage text with `index --method fast` (its triplets
   ignored), `eval retrieval` (naive, hops --set hops.rerank=false, local) on questions_dev.json
   without --corpus; then the graph wiped and the same evaluation on the triplet graph. Both
   through the CLI, each in a process of its own; their recalls side by side. --musique-passages N
   indexes only the questions' gold passages plus the corpus's first others (N in all) for both
   graphs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.indexing.graph_reset import empty_graph
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.extraction.fast.extraction import extract_fast
from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline
from graphrag_neo4j.indexing.extraction.fast.parsing import parsed_texts, pipe_processes
from graphrag_neo4j.indexing.input.chunking import chunk_document
from graphrag_neo4j.indexing.input.loaders import load_documents
from graphrag_neo4j.settings import Settings, load_settings

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
BOOK = DATA / "christmas_carol" / "book.txt"
CORPUS = DATA / "musique" / "corpus.jsonl"
QUESTIONS = DATA / "musique" / "questions_dev.json"
CLI = [sys.executable, "-m", "graphrag_neo4j"]
METHODS = ("naive", "hops", "local")
KS = (2, 5)
CHARACTERS = {
    "Scrooge": ("Scrooge", "Ebenezer Scrooge"),
    "Bob Cratchit": ("Bob Cratchit", "Bob", "Cratchit"),
    "Marley": ("Marley", "Jacob Marley"),
    "Tiny Tim": ("Tiny Tim",),
    "Fezziwig": ("Fezziwig", "old Fezziwig"),
    "Fred": ("Fred",),
    "Belle": ("Belle",),
    "Ghost of Christmas Past": ("Ghost of Christmas Past",),
    "Ghost of Christmas Present": ("Ghost of Christmas Present",),
    "Ghost of Christmas Yet To Come": ("Ghost of Christmas Yet to Come",
                                       "Ghost of Christmas Yet To Come"),
}
console = Console()


def measure_extraction(settings: Settings, rounds: int = 3) -> tuple[float, float]:
    """Median words/s of a bare nlp.pipe over the book's chunks and of fast extraction over them.

    The runs alternate, `rounds` times each: on a shared two-core machine the speed of the same
    work drifts by a quarter within minutes, so only neighbouring runs compare fairly. Words are
    the chunks' words throughout; fast extraction parses a window's overlap with the window
    before it once and folds line wraps, and a second bare nlp.pipe over exactly that text
    shows what that saves.
    """
    (book,) = load_documents([BOOK]).documents
    chunks = chunk_document(book, settings.chunking)
    words = sum(len(chunk.text.split()) for chunk in chunks)
    parsed = parsed_texts(chunks)
    parsed_words = sum(len(text.split()) for text in parsed)
    nlp = load_pipeline()
    fast = settings.extraction.fast
    list(nlp.pipe([c.text for c in chunks[:2]]))  # warm up caches, as a long run would be
    processes = pipe_processes(fast, len(chunks))

    def bare(texts: list[str]) -> None:
        for _ in nlp.pipe(texts, batch_size=fast.batch_size, n_process=processes):
            pass

    def extraction() -> None:
        extract_fast(lambda: nlp, chunks, fast)

    runs: dict[str, list[float]] = defaultdict(list)
    work: dict[str, Callable[[], None]] = {
        "windows": lambda: bare([c.text for c in chunks]), "parsed": lambda: bare(parsed),
        "fast": extraction,
    }
    for _ in range(rounds):
        for name, step in work.items():
            started = time.perf_counter()
            step()
            runs[name].append(words / (time.perf_counter() - started))
    floor, fast_speed = statistics.median(runs["windows"]), statistics.median(runs["fast"])
    table = Table(title=f"Extraction over the book's {len(chunks)} chunks ({words:,} words,"
                  f" {processes} spaCy process{'es' if processes > 1 else ''}, median of"
                  f" {rounds} alternating runs)")
    for column in ("", "words parsed", "words/s", "runs", "x floor"):
        table.add_column(column, justify="right")
    rows = (("bare nlp.pipe over the chunks (floor)", "windows", words),
            ("bare nlp.pipe over the text fast extraction parses", "parsed", parsed_words),
            ("fast extraction", "fast", parsed_words))
    for label, name, read in rows:
        speed = statistics.median(runs[name])
        table.add_row(label, f"{read:,}", f"{speed:,.0f}", _runs(runs[name]),
                      f"{speed / floor:.2f}")
    console.print(table)
    return floor, fast_speed


def _runs(speeds: list[float]) -> str:
    return " ".join(f"{speed:,.0f}" for speed in speeds)


def index_book(settings: Settings, reset: bool) -> None:
    """The whole book through the fast path into an empty graph, cold embedding cache."""
    with tempfile.TemporaryDirectory() as cache:
        cold = settings.model_copy(update={"cache_dir": Path(cache)})
        with GraphRAG(cold, console=Console(stderr=True, quiet=True)) as rag:
            empty_graph(rag.store, reset)
            asyncio.run(rag.aensure_schema())  # the embedder loads here, outside the timing
            started = time.perf_counter()
            stats, _ = rag.index([BOOK], method="fast")
            total = time.perf_counter() - started
            _book_report(rag, stats.stage_seconds, total, stats.merges)


def _book_report(rag: GraphRAG, stages: dict[str, float], total: float, merges: int) -> None:
    table = Table(title="The whole book, indexed with method fast")
    table.add_column("stage")
    table.add_column("seconds", justify="right")
    for stage, seconds in stages.items():
        table.add_row(stage, f"{seconds:.1f}")
    table.add_row("total (wall, target < 90 s)", f"{total:.1f}")
    console.print(table)
    counts = rag.counts()
    console.print(f"Graph: {counts}, {merges} merges recorded")
    top = Table("entity", "type", "degree", "frequency", title="Top 10 entities by degree")
    for row in rag.store.read("bench/top_entities_by_degree", limit=10):
        top.add_row(row["name"], row["type"], str(row["degree"]), str(row["frequency"]))
    console.print(top)
    names = [n for spellings in CHARACTERS.values() for n in spellings]
    found = {row["name"]: row for row in rag.store.read("bench/entities_named", names=names)}
    for character, spellings in CHARACTERS.items():
        hits = [f"{n} ({found[n]['type']}, degree {found[n]['degree']})"
                for n in spellings if n in found]
        console.print(f"  {character}: {', '.join(hits) if hits else 'MISSING'}")
    relations = rag.store.read(
        "bench/relations_between_names", names=list(CHARACTERS["Scrooge"]),
        others=list(CHARACTERS["Bob Cratchit"]),
    )
    shown = "; ".join(f"{r['source']} -[{r['predicate']} {r['weight']:.2f}]-> {r['target']}"
                      for r in relations) or "MISSING"
    console.print(f"Scrooge-Cratchit relations: {shown}", markup=False)


def _cli(*args: str) -> None:
    started = time.perf_counter()
    subprocess.run([*CLI, *args], check=True)
    console.print(f"[dim]{' '.join(args[:2])}: {time.perf_counter() - started:.0f} s[/dim]")


def _recalls(path: Path) -> dict[str, dict[int, float]]:
    """Mean Recall@k per method from the CLI's per-question lines."""
    sums: dict[str, dict[int, float]] = defaultdict(lambda: dict.fromkeys(KS, 0.0))
    counts: dict[str, int] = defaultdict(int)
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        counts[row["method"]] += 1
        for k in KS:
            sums[row["method"]][k] += row[f"recall@{k}"]
    return {m: {k: 100 * v / counts[m] for k, v in ks.items()} for m, ks in sums.items()}


def _subset(folder: Path, passages: int, limit: int | None) -> Path:
    """The questions' gold passages plus the corpus's first others, up to `passages` in all."""
    questions = json.loads(QUESTIONS.read_text(encoding="utf-8"))[:limit]
    gold = {pid for q in questions for pid in q["supporting_passage_ids"]}
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    chosen = [line for line in lines if json.loads(line)["id"] in gold]
    chosen += [line for line in lines if json.loads(line)["id"] not in gold]
    subset = folder / "corpus_subset.jsonl"
    subset.write_text("\n".join(chosen[: max(passages, len(gold))]) + "\n", encoding="utf-8")
    return subset


def musique(store: Store, limit: int | None, passages: int | None) -> None:
    """Recall on the graph built from passage text (fast) beside the triplet graph."""
    eval_args = ["eval", "retrieval", "--questions", str(QUESTIONS),
                 "--method", ",".join(METHODS), "--set", "hops.rerank=false",
                 "--k", ",".join(map(str, KS))]
    if limit:
        eval_args += ["--limit", str(limit)]
    results: dict[str, dict[str, dict[int, float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        corpus = _subset(Path(folder), passages, limit) if passages else CORPUS
        console.print(f"Corpus: {corpus.name}, {len(corpus.read_text().splitlines())} passages")
        for graph in ("fast", "triplets"):
            store.run_autocommit("database/delete_all")
            lines = Path(folder) / f"{graph}.jsonl"
            if graph == "fast":
                _cli("index", str(corpus), "--method", "fast", "--no-communities")
                _cli(*eval_args, "--per-question", str(lines))
            else:
                _cli(*eval_args, "--corpus", str(corpus), "--per-question", str(lines))
            results[graph] = _recalls(lines)
    table = Table(title="MuSiQue dev retrieval, Recall@k (%), hops without LLM rerank")
    table.add_column("method")
    for graph in results:
        for k in KS:
            table.add_column(f"{graph} R@{k}", justify="right")
    for method in METHODS:
        cells: list[Any] = [
            f"{results[g].get(method, {}).get(k, float('nan')):.1f}" for g in results for k in KS
        ]
        table.add_row(method, *cells)
    console.print(table)


def main() -> None:
    """Run the three parts and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reset", action="store_true", help="Wipe a non-empty graph first.")
    parser.add_argument("--skip-musique", action="store_true", help="Only the book.")
    parser.add_argument("--questions-limit", type=int, help="Only the first N questions.")
    parser.add_argument("--musique-passages", type=int,
                        help="Index only the questions' gold passages plus others up to N.")
    parser.add_argument("--skip-book", action="store_true", help="Only MuSiQue.")
    args = parser.parse_args()
    settings = load_settings()
    if not args.skip_book:
        measure_extraction(settings)
        index_book(settings, args.reset)
    if not args.skip_musique:
        with Store.connect(settings.neo4j) as store:
            empty_graph(store, args.reset)
            musique(store, args.questions_limit, args.musique_passages)


if __name__ == "__main__":
    main()
