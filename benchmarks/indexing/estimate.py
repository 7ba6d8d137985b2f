"""Estimate beside actual: `GraphRAG.estimate` first, then the real index + communities run.

Uses the Neo4j of the GRAPHRAG_NEO4J__* environment and EMPTIES IT (refused without --wipe).
  .venv/bin/python benchmarks/indexing/estimate.py --wipe            # fake LLM, sample + MuSiQue
  .venv/bin/python benchmarks/indexing/estimate.py --wipe --offline --corpus sample  # local model
The fake LLM (graphrag_neo4j.llm.testing.pipeline_fake_llm) first indexes another slice of the same
corpus so the estimate has this model's measured completion ratios, as a user's earlier runs
would give; the offline run only has the `models` probe's timing. Every run uses a fresh cache.
Targets: extraction and gleaning calls exact; prompt tokens within 5 %; actual completion tokens
inside the predicted range; offline wall time within +-50 %.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from rich.console import Console
from rich.table import Table

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.calls.usage import StageUsage
from graphrag_neo4j.llm.costs.estimate import CostEstimate, Range
from graphrag_neo4j.llm.testing import FakeEmbeddings, pipeline_fake_llm
from graphrag_neo4j.settings import Settings, load_settings

REPO = Path(__file__).resolve().parents[2]
MUSIQUE = REPO.parent / "shared" / "data" / "musique" / "corpus.jsonl"
SAMPLE = REPO / "sample" / "christmas_carol_stave_one.md"
BOOK = REPO / "sample" / "a_christmas_carol.txt"
ROWS = {"extraction": "extract", "gleaning": "glean", "resolution": "resolve",
        "summaries": "summarize", "community reports": "community reports"}
console = Console(width=160)


@dataclass
class Corpus:
    """Documents to estimate and run, another slice to warm the fake up with, and settings."""

    name: str
    paths: list[Path]
    warmup: list[Path]
    settings: Settings


def _write(folder: Path, texts: list[str]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, text in enumerate(texts):
        paths.append(folder / f"doc_{number:03d}.txt")
        paths[-1].write_text(text, encoding="utf-8")
    return paths


def corpora(which: str, work: Path) -> list[Corpus]:
    """The sample with its settings file, and 20 MuSiQue passages with the defaults."""
    found = []
    if which in ("sample", "both"):
        book = BOOK.read_text(encoding="utf-8")
        warm = _write(work / "sample_warmup", [book[80_000:83_000], book[120_000:123_000]])
        found.append(Corpus("sample", [SAMPLE], warm, load_settings(REPO / "sample" /
                                                                    "graphrag.toml")))
    if which in ("musique", "both"):
        with MUSIQUE.open(encoding="utf-8") as handle:
            texts = [json.loads(line)["text"] for _, line in zip(range(40), handle, strict=False)]
        found.append(Corpus("musique-20", _write(work / "musique", texts[:20]),
                            _write(work / "musique_warmup", texts[20:30]), load_settings()))
    return found


def _models(offline: bool, settings: Settings) -> tuple[BaseChatModel, Embeddings]:
    if not offline:
        return pipeline_fake_llm(), FakeEmbeddings()
    from graphrag_neo4j.llm.providers import resolve_embeddings, resolve_llm

    return resolve_llm(settings).model, resolve_embeddings(settings).model


def _warm_up(corpus: Corpus, settings: Settings, offline: bool, llm: BaseChatModel,
             embeddings: Embeddings) -> None:
    """Measurements an earlier run would have left: the probe (offline) or another slice."""
    if offline:
        from graphrag_neo4j.cli.models import probe_embedder, probe_llm

        # Both, as `graphrag-neo4j models` does: a stage without a timing leaves the total
        # time unknown.
        asyncio.run(probe_llm(settings))
        asyncio.run(probe_embedder(settings))
        return
    with GraphRAG(settings, llm=llm, embeddings=embeddings, console=Console(quiet=True)) as rag:
        rag.index(corpus.warmup)
        rag.build_communities()


def _fresh_cache(settings: Settings, folder: Path) -> Settings:
    """A new, empty cache folder, still using the offline model already joined in the old one."""
    joined = settings.cache_dir / "models"
    gguf = next(iter(sorted(joined.glob("*.gguf"))), None) if joined.is_dir() else None
    llm = settings.llm
    if llm.gguf_path is None and gguf is not None:
        llm = llm.model_copy(update={"gguf_path": gguf})
    return settings.model_copy(update={"cache_dir": folder, "llm": llm})


def run(corpus: Corpus, offline: bool, work: Path) -> None:
    """Estimate, run, and print the two side by side."""
    settings = _fresh_cache(corpus.settings, work / f"cache_{corpus.name}")
    llm, embeddings = _models(offline, settings)
    store = Store.connect(settings.neo4j)
    store.run_autocommit("database/delete_all")
    _warm_up(corpus, settings, offline, llm, embeddings)
    store.run_autocommit("database/delete_all")
    quiet = Console(quiet=True)
    with GraphRAG(settings, llm=llm, embeddings=embeddings, console=quiet) as rag:
        started = time.perf_counter()
        estimate = rag.estimate(corpus.paths)
        estimate_s = time.perf_counter() - started
        started = time.perf_counter()
        stats, _ = rag.index(corpus.paths)
        rag.build_communities()
        wall_s = time.perf_counter() - started
        used = rag.llm.usage.stages()
    store.close()
    console.print(_table(corpus, estimate, used, stats.chunks))
    seconds = estimate.total().seconds
    model_s = sum(u.seconds for u in used.values())
    predicted = (f"{seconds.expected:,.0f} ({seconds.text(',.0f')})" if seconds is not None
                 else "unknown")
    console.print(f"{corpus.name}: estimate took {estimate_s:.1f} s; time predicted "
                  f"{predicted} s, actual run {wall_s:.0f} s wall ({model_s:.0f} s in the model)",
                  highlight=False)


def _mark(actual: float, predicted: Range) -> str:
    return "yes" if predicted.low <= actual <= predicted.high else "NO"


def _table(corpus: Corpus, estimate: CostEstimate, used: dict[str, StageUsage], chunks: int
           ) -> Table:
    table = Table(title=f"{corpus.name}: {len(corpus.paths)} documents, {chunks} chunks")
    for header in ("stage", "calls est", "calls act", "prompt est (range)", "prompt act",
                   "prompt err", "completion est", "completion act", "in range"):
        table.add_column(header, justify="left" if header == "stage" else "right")
    for row, stage in ROWS.items():
        predicted, actual = estimate.stage(row), used.get(stage, StageUsage())
        prompt = predicted.prompt_tokens
        error = ((prompt.expected - actual.prompt_tokens) / actual.prompt_tokens
                 if actual.prompt_tokens else 0.0)
        table.add_row(row, predicted.calls.text(), f"{actual.calls:,}",
                      f"{prompt.expected:,.0f} ({prompt.text()})", f"{actual.prompt_tokens:,}",
                      f"{error:+.1%}", predicted.completion_tokens.text(),
                      f"{actual.completion_tokens:,}",
                      _mark(actual.completion_tokens, predicted.completion_tokens))
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wipe", action="store_true", help="Agree to empty the graph.")
    parser.add_argument("--offline", action="store_true", help="The real local model.")
    parser.add_argument("--corpus", choices=["sample", "musique", "both"], default="both")
    args = parser.parse_args()
    if not args.wipe:
        sys.exit("This benchmark empties the Neo4j graph of the current settings; pass --wipe.")
    with tempfile.TemporaryDirectory() as folder:
        for corpus in corpora(args.corpus, Path(folder)):
            run(corpus, args.offline, Path(folder))


if __name__ == "__main__":
    main()
