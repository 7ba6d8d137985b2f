"""What one DRIFT answer costs with the offline model and the demo settings, beside a local one.

The LLM calls are the whole cost of DRIFT on a small graph (retrieval takes milliseconds), so
this runs the real DriftSearch and LocalSearch with the offline llama.cpp model and the
settings of `sample/graphrag.toml`, over retrieval rows cut from the bundled sample: community
reports for the primer and passages for the local contexts, filled to the same token budgets the
demo graph fills. No Neo4j and no response cache. Run:
    .venv/bin/python benchmarks/query/drift_offline.py
Prints calls, tokens and seconds per stage, both wall times and DRIFT's ratio to local (floor).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.providers import resolve_llm
from graphrag_neo4j.llm.testing import FakeEmbeddings
from graphrag_neo4j.llm.tokens.context_window import fit_to_window
from graphrag_neo4j.query.answers.run import run_query
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.drift.search import DriftSearch
from graphrag_neo4j.query.local.search import ENTITY_INDEX, LocalSearch
from graphrag_neo4j.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
QUESTION = "How does Scrooge treat the people who visit his counting-house on Christmas Eve?"


def paragraphs() -> list[str]:
    """The sample's paragraphs of some length, in order."""
    text = (ROOT / "sample" / "christmas_carol_stave_one.md").read_text(encoding="utf-8")
    return [" ".join(p.split()) for p in text.split("\n\n") if len(p) > 300]


@dataclass
class SampleStore:
    """The primer's nearest reports (groups of the sample's paragraphs), and one local search
    context whose passages every question gets: no fulltext seeds nor candidate passages."""

    reports: list[dict[str, Any]]
    local_context: dict[str, Any]
    top_chunks: int

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """The reports for the primer, the entity index and local search's retrieval row."""
        if name == "query/search/search_communities_by_vector":
            return self.reports[: params["k"]]
        if name == "database/embedder/show_vector_indexes":
            return [{"name": ENTITY_INDEX, "dimensions": FakeEmbeddings().dimension}]
        if name == "query/local_retrieval":
            # Local search ranks its passages before this read; the demo graph fills the
            # `local.top_chunks` it asks for, so the canned passages stand in for that ranking.
            chunks = self.local_context["chunks"][: self.top_chunks]
            return [{"text": "", "score": 0.8,
                     "metadata": {**self.local_context, "chunks": chunks}}]
        return []

    def write_rows(
        self, name: str, rows: Sequence[Mapping[str, Any]], **params: Any  # noqa: ARG002
    ) -> int:
        """Nothing is written: DRIFT and local search only read."""
        raise AssertionError(f"unexpected write {name}")


@dataclass
class SampleServices:
    """Settings, canned retrieval, the offline LLM and a fake embedder (not measured)."""

    settings: Settings
    store: SampleStore
    llm: LLMCaller
    embedder: EmbeddingCaller


def services() -> SampleServices:
    """The services over the sample's passages and reports."""
    settings = load_settings(ROOT / "sample" / "graphrag.toml")
    settings = fit_to_window(settings, settings.llm.n_ctx)
    texts = paragraphs()
    # The demo graph: five community reports (about two paragraphs each) and three chunks.
    reports = [{"id": f"r{i}", "level": 0, "title": f"Stave One, part {i + 1}",
                "summary": texts[i * 2][:200], "full_content": " ".join(texts[i * 2:i * 2 + 2]),
                "rank": 5.0, "score": 0.8} for i in range(5)]
    chunks = [{"id": f"c{i}", "document_id": "stave-one", "text": " ".join(texts[a:b])}
              for i, (a, b) in enumerate([(0, 4), (4, 7), (7, 10)])]
    llm = LLMCaller(resolve_llm(settings).model, settings.llm, None, no_cache=True)
    embedder = EmbeddingCaller(FakeEmbeddings(), settings.embedding, None, no_cache=True)
    local_context = {"chunks": chunks, "reports": reports[:1], "entities": [],
                     "inside_rels": [], "outside_rels": []}
    store = SampleStore(reports, local_context, settings.search.local.top_chunks)
    return SampleServices(settings, store, llm, embedder)


async def timed(run: Awaitable[T]) -> tuple[T, float]:
    """The result of `run` and the seconds it took."""
    start = time.monotonic()
    result = await run
    return result, time.monotonic() - start


async def main() -> None:
    """Warm the model up, then time a local answer (the floor) and a DRIFT answer."""
    bundle = services()
    console = Console()
    _, load_s = await timed(bundle.llm.complete("Say OK.", stage="warm_up", max_tokens=2))
    query = make_query(bundle.settings, QUESTION)
    local_answer, local_s = await timed(run_query(bundle, LocalSearch(bundle), query))
    drift = DriftSearch(bundle)
    drift_answer, drift_s = await timed(run_query(bundle, drift, query))
    console.print(bundle.llm.usage_table("Offline LLM per stage"))
    console.print(f"model load + warm-up {load_s:.0f} s")
    console.print(f"local answer {local_s:.0f} s ({local_answer.llm_calls} call)")
    console.print(f"DRIFT answer {drift_s:.0f} s ({drift_answer.llm_calls} calls,"
                  f" {drift_answer.prompt_tokens:,} prompt + {drift_answer.completion_tokens:,}"
                  f" completion tokens) = {drift_s / local_s:.1f}x the local answer")
    console.print(f"notes: {drift_answer.notes}")
    for finding in drift_answer.sources.get("Findings", []):
        console.print(f"  step depth {finding['depth']} score {finding['score']}:"
                      f" {finding['question']}", highlight=False)
    console.print(drift_answer.text, highlight=False, markup=False)


if __name__ == "__main__":
    asyncio.run(main())
