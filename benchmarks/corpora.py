"""The corpus zoo: every real corpus indexed end to end with `--method fast`, then retrieve-only
queries with every method; per corpus what it cost and whether the graph is clean.

Run against a Neo4j of its own (each corpus wipes the graph, so --reset is required):
  .venv/bin/python benchmarks/corpora.py --reset [--limit-docs N] [--only NAME ...]
                                          [--llm-chunks N] [--no-communities] [--cold]
Corpora (../shared/data and ../shared/seeds): the book (sample/a_christmas_carol.txt), the book
as a PDF made with enscript + ps2pdf (skipped, said so, when they are not installed), Operation
Dulce (Markdown), MuSiQue passage text and MuSiQue triplets, 2Wiki (6,119 passages), the
biomedical passages, the Chinese seeds, the English Markdown seed with code, and the git
manual's HTML pages (benchmarks/data/git-manual, with 20 questions).

Each corpus runs in a process of its own (`--one NAME`), so its peak RSS (the indexing process
and its forked spaCy workers) is its own. Per corpus: documents, words, seconds per stage,
words/s, peak RSS, entities, relations, communities, the junk rate (share of the graph's entity
names `junk_reason` refuses: the same rule the writer applies, so names refused before writing
are counted apart as `refused`), documents skipped or not extracted, errors, and the median
retrieve-only latency of each query method over questions made from the corpus's titles.
The run exits 1 when a corpus crashed (a skipped corpus is not a crash).
Query methods: those whose context needs no LLM call (hops without its rerank); name drift
with --methods to time it too.
`--llm-chunks N` also indexes the first N chunks of each corpus with `--method llm` and the
offline model (slow on a shared CPU: keep N tiny). Figures print beside the book's words/s,
the floor of the same run. `--cold` gives each corpus an empty cache folder (only the model
files are shared), so no corpus's words/s owes anything to an earlier run's caches.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.extraction.names import junk_reason
from graphrag_neo4j.indexing.input.loaders import load_documents
from graphrag_neo4j.query.registry import METHODS
from graphrag_neo4j.runtime.errors import GraphRAGError
from graphrag_neo4j.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DATA, SEEDS = SHARED / "data", SHARED / "seeds"
BOOK = ROOT / "sample" / "a_christmas_carol.txt"
QUESTIONS_PER_CORPUS = 3
# How an error opens when the corpus could not run at all (the run exits 1), not a refused record.
CRASH = "CRASH"
# Retrieval with no LLM call: hops without its LLM rerank and follow-up.
NO_LLM_OPTIONS: dict[str, dict[str, object]] = {
    "hops": {"hops.rerank": False, "hops.follow_up": False}
}
console = Console(width=220)


@dataclass(frozen=True)
class Corpus:
    """One corpus: its files, and whether they are a triplet corpus."""

    name: str
    paths: tuple[Path, ...]
    triplets: bool = False
    expected_unextracted: int = 0  # documents fast extraction refuses (not English)


CORPORA = (
    Corpus("book", (BOOK,)),
    Corpus("book-pdf", (Path("book.pdf"),)),  # made in the run's folder, see _book_pdf
    Corpus("dulce-md", (DATA / "operation_dulce" / "Operation_Dulce_v2_1_1.md",)),
    Corpus("musique-text", (DATA / "musique" / "corpus.jsonl",)),
    Corpus("musique-triplets", (DATA / "musique" / "corpus.jsonl",), triplets=True),
    # One English passage (2wiki-03743, a film's quoted Romanian titles) is read as Romanian
    # with 0.99 confidence; stripping quoted titles instead misreads another passage.
    Corpus("2wiki", (DATA / "2wiki" / "corpus.jsonl",), expected_unextracted=1),
    Corpus("biomed", (DATA / "biomed" / "corpus.jsonl",)),
    Corpus("seeds-zh", (SEEDS / "tiny_graphrag.zh.md", SEEDS / "msgraphrag_query_on_neo4j.zh.md"),
           expected_unextracted=2),
    Corpus("seeds-en-code", (SEEDS / "graph_rag_with_milvus.en.md",)),
    # 126 HTML pages of Debian's git manual (benchmarks/data/git-manual), converted as any
    # HTML file is.
    Corpus("git-manual", (ROOT / "benchmarks" / "data" / "git-manual" / "pages",)),
)


@dataclass
class Result:
    """What one corpus's run measured."""

    corpus: str
    documents: int = 0
    words: int = 0
    seconds: float = 0.0  # indexing, wall
    community_seconds: float = 0.0
    stage_seconds: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: float = 0.0
    entities: int = 0
    relations: int = 0
    communities: int = 0
    junk: int = 0
    junk_examples: list[str] = field(default_factory=list)
    refused_names: int = 0
    skipped_files: int = 0
    unextracted_documents: int = 0
    expected_unextracted: int = 0
    errors: list[str] = field(default_factory=list)
    skipped: str = ""  # why the corpus was not run (a missing converter): no error, no crash
    query_ms: dict[str, float] = field(default_factory=dict)
    llm_chunks: int = 0
    llm_seconds: float = 0.0

    @property
    def junk_rate(self) -> float:
        return self.junk / self.entities if self.entities else 0.0


def junk_names(names: list[str], max_words: int) -> list[str]:
    """The names the writer's own rule (`junk_reason`) would refuse."""
    return [name for name in names if junk_reason(name, max_words) is not None]


def limited(corpus: Corpus, folder: Path, limit: int | None) -> list[Path]:
    """The corpus's files, a JSONL one cut to its first `limit` records (a copy in `folder`)."""
    if limit is None:
        return list(corpus.paths)
    paths = []
    for path in corpus.paths:
        if path.suffix != ".jsonl":
            paths.append(path)
            continue
        copy = folder / f"{corpus.name}-{path.name}"
        with path.open(encoding="utf-8") as source:
            copy.write_text("".join(line for _, line in zip(range(limit), source, strict=False)),
                            encoding="utf-8")
        paths.append(copy)
    return paths


def book_pdf(folder: Path) -> Path | None:
    """The book as a PDF made by real converters (enscript to PostScript, ps2pdf), or None."""
    if shutil.which("enscript") is None or shutil.which("ps2pdf") is None:
        return None
    postscript, pdf = folder / "book.ps", folder / "book.pdf"
    subprocess.run(["enscript", "-q", "-B", "-o", str(postscript), str(BOOK)], check=True)
    subprocess.run(["ps2pdf", str(postscript), str(pdf)], check=True)
    return pdf


def run_one(corpus: Corpus, settings: Settings, folder: Path, limit: int | None,
            communities: bool, llm_chunks: int, methods: list[str]) -> Result:
    """Index one corpus into the emptied graph and measure it (this process only)."""
    result = Result(corpus.name, expected_unextracted=corpus.expected_unextracted)
    paths = limited(corpus, folder, limit)
    if corpus.name == "book-pdf":
        pdf = book_pdf(folder)
        if pdf is None:
            result.skipped = "enscript and ps2pdf (Debian) are not installed"
            return result
        paths = [pdf]
    with GraphRAG(settings, console=Console(stderr=True, quiet=True)) as rag:
        rag.store.run_autocommit("database/delete_all")
        asyncio.run(rag.aensure_schema())
        started = time.perf_counter()
        try:
            _index(rag, corpus, paths, result)
            result.seconds = time.perf_counter() - started
            if communities:
                rag.build_communities(reports="none")
                result.community_seconds = time.perf_counter() - started - result.seconds
        except GraphRAGError as error:
            result.errors.append(str(error))
        except Exception as error:  # a crash is what the zoo is here to find: count it
            result.errors.append(f"{CRASH} {type(error).__name__}: {error}")
            traceback.print_exc()
        _graph_figures(rag, result, settings.extraction.max_name_words)
        _queries(rag, result, methods)
        if llm_chunks:
            _llm_slice(rag, paths, result, llm_chunks)
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    result.peak_rss_mb = max(own, workers) / 1024
    return result


def _index(rag: GraphRAG, corpus: Corpus, paths: list[Path], result: Result) -> None:
    if corpus.triplets:
        stats = rag.index_triplets(paths[0])
    else:
        stats, _ = rag.index(paths, method="fast")
    result.documents = stats.documents
    result.stage_seconds = dict(stats.stage_seconds)
    result.refused_names = stats.refused_names
    result.skipped_files = stats.skipped_files + stats.refused_documents
    result.unextracted_documents = stats.unextracted_documents
    result.words = sum(len(d.text.split()) for d in load_documents(paths).documents)


def _graph_figures(rag: GraphRAG, result: Result, max_words: int) -> None:
    counts = rag.counts()
    result.entities, result.relations = counts["entities"], counts["relations"]
    result.communities = counts["communities"]
    names = [row["name"] for row in rag.store.read("bench/entity_names")]
    junk = junk_names(names, max_words)
    result.junk, result.junk_examples = len(junk), junk[:5]


def default_methods() -> list[str]:
    """Every registered method whose context needs no LLM call (with NO_LLM_OPTIONS)."""
    return [name for name, factory in METHODS.items()
            if not getattr(factory, "needs_llm", True) or name in NO_LLM_OPTIONS]


def _queries(rag: GraphRAG, result: Result, methods: list[str]) -> None:
    """Median retrieve-only milliseconds per method over questions about the first titles,
    after one untimed question per method."""
    rows = rag.store.read("indexing/documents/list_documents", skip=0, limit=QUESTIONS_PER_CORPUS)
    questions = [f"What is said about {row['title']}?" for row in rows] or ["What happens?"]
    for method in methods:
        times = []
        try:
            # Untimed: a process's first question loads the embedder and the NER model (about
            # 3 s on busy cores), which was the whole median of a one-document corpus (the book).
            rag.retrieve(questions[0], method, **NO_LLM_OPTIONS.get(method, {}))
            for question in questions:
                started = time.perf_counter()
                rag.retrieve(question, method, **NO_LLM_OPTIONS.get(method, {}))
                times.append(1000 * (time.perf_counter() - started))
        except Exception as error:  # a method failing on a corpus is a finding, not a stop
            result.errors.append(f"{method}: {type(error).__name__}: {str(error)[:120]}")
            continue
        result.query_ms[method] = statistics.median(times)


def _llm_slice(rag: GraphRAG, paths: list[Path], result: Result, chunks: int) -> None:
    """The first `chunks` chunks of the corpus through `--method llm` (the offline model)."""
    from graphrag_neo4j.indexing.input.chunking import chunk_document
    from graphrag_neo4j.indexing.records import Document

    picked: list[Document] = []
    for document in load_documents(paths).documents:
        for chunk in chunk_document(document, rag.settings.chunking):
            if len(picked) < chunks:
                picked.append(Document(f"llm-{chunk.id}", document.title, document.source,
                                       chunk.text))
    settings = rag.settings.model_copy(update={"extraction": rag.settings.extraction.model_copy(
        update={"method": "llm"})})
    started = time.perf_counter()
    try:
        asyncio.run(rag._indexer(settings).index_documents(picked))
    except Exception as error:
        result.errors.append(f"llm slice: {type(error).__name__}: {str(error)[:160]}")
    result.llm_chunks, result.llm_seconds = len(picked), time.perf_counter() - started


def _table(results: list[Result]) -> Table:
    floor = next((r for r in results if r.corpus == "book" and r.seconds), None)
    floor_speed = floor.words / floor.seconds if floor else 0.0
    table = Table(title="The corpus zoo, --method fast (words/s beside the book's, same run)")
    for column in ("corpus", "docs", "words", "index s", "communities s", "words/s", "x book",
                   "peak RSS MB", "entities", "relations", "communities", "junk %", "refused names",
                   "skipped", "not extracted", "errors"):
        table.add_column(column, justify="right" if column != "corpus" else "left")
    for r in results:
        speed = r.words / r.seconds if r.seconds else 0.0
        table.add_row(
            f"{r.corpus} (skipped)" if r.skipped else r.corpus,
            f"{r.documents:,}", f"{r.words:,}", f"{r.seconds:.1f}",
            f"{r.community_seconds:.1f}", f"{speed:,.0f}",
            f"{speed / floor_speed:.2f}" if floor_speed else "", f"{r.peak_rss_mb:,.0f}",
            f"{r.entities:,}", f"{r.relations:,}", f"{r.communities:,}",
            f"{100 * r.junk_rate:.2f}", f"{r.refused_names:,}", str(r.skipped_files),
            f"{r.unextracted_documents}/{r.expected_unextracted} expected", str(len(r.errors)))
    return table


def _query_table(results: list[Result], methods: list[str]) -> Table:
    table = Table(title="Retrieve-only latency, median ms over questions from titles")
    table.add_column("corpus")
    for method in methods:
        table.add_column(method, justify="right")
    for r in results:
        missing = "skipped" if r.skipped else "failed"
        table.add_row(r.corpus, *(f"{r.query_ms[m]:,.0f}" if m in r.query_ms else missing
                                  for m in methods))
    return table


def cold_cache(folder: Path, name: str) -> Path:
    """An empty cache folder for one corpus (parse, embedding and LLM caches), sharing only the
    downloaded model files, so every corpus pays for what it parses and embeds."""
    cache = folder / f"cache-{name}"
    cache.mkdir()
    models = load_settings().cache_dir / "models"
    if models.is_dir():
        (cache / "models").symlink_to(models, target_is_directory=True)
    return cache


def _child(name: str, args: argparse.Namespace, folder: Path) -> Result:
    command = [sys.executable, __file__, "--one", name, "--folder", str(folder)]
    if args.limit_docs is not None:
        command += ["--limit-docs", str(args.limit_docs)]
    if args.no_communities:
        command.append("--no-communities")
    if args.llm_chunks:
        command += ["--llm-chunks", str(args.llm_chunks)]
    command += ["--methods", *args.methods]
    env = {**os.environ, "GRAPHRAG_CACHE_DIR": str(cold_cache(folder, name))} if args.cold \
        else None
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        return Result(name, errors=[f"{CRASH} (exit {done.returncode}): {tail[0]}"])
    fields = json.loads(lines[-1])
    return Result(**fields)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reset", action="store_true", help="wipe the graph (required)")
    parser.add_argument("--limit-docs", type=int, help="first N records of each JSONL corpus")
    parser.add_argument("--only", nargs="*", help="corpus names to run")
    parser.add_argument("--no-communities", action="store_true")
    parser.add_argument("--cold", action="store_true",
                        help="an empty cache folder per corpus (words/s without cache hits)")
    parser.add_argument("--llm-chunks", type=int, default=0,
                        help="also index the first N chunks with --method llm (offline model)")
    parser.add_argument("--methods", nargs="*", default=default_methods(),
                        help="query methods to time (default: those retrieving with no LLM)")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        corpus = next(c for c in CORPORA if c.name == args.one)
        result = run_one(corpus, load_settings(), args.folder, args.limit_docs,
                         not args.no_communities, args.llm_chunks, args.methods)
        print(json.dumps(asdict(result)))
        return
    if not args.reset:
        raise SystemExit("Each corpus wipes the graph: pass --reset, with GRAPHRAG_NEO4J__* "
                         "pointing at a server of the benchmark's own.")
    chosen = [c for c in CORPORA if not args.only or c.name in args.only]
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for corpus in chosen:
            console.print(f"[dim]{corpus.name}...[/dim]")
            results.append(_child(corpus.name, args, Path(folder)))
    console.print(_table(results))
    console.print(_query_table(results, args.methods))
    for r in results:
        if r.skipped:
            console.print(f"{r.corpus}: skipped, {r.skipped}", markup=False)
        for error in r.errors:
            console.print(f"{r.corpus}: {error}", markup=False)
        if r.junk_examples:
            console.print(f"{r.corpus} junk: {r.junk_examples}", markup=False)
        if r.llm_chunks:
            console.print(f"{r.corpus}: llm slice {r.llm_chunks} chunks in {r.llm_seconds:.0f} s")
    crashed = [r.corpus for r in results if any(e.startswith(CRASH) for e in r.errors)]
    if crashed:  # the table alone would let a script take a run of crashes for a pass
        raise SystemExit(f"{len(crashed)} of {len(results)} corpora crashed "
                         f"({', '.join(crashed)}); the reason of each is above.")


if __name__ == "__main__":
    main()
