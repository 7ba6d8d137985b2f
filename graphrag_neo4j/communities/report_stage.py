"""Writes community reports bottom-up, level by level, reusing those whose inputs are unchanged."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from graphrag_neo4j.communities.context import (
    ChildReport,
    ReportContext,
    TokenCounter,
    build_context,
    entity_rows,
    relation_rows,
)
from graphrag_neo4j.communities.reports import Report, ReportWriter
from graphrag_neo4j.indexing.progress import StageProgress
from graphrag_neo4j.llm.calls import LLMCaller
from graphrag_neo4j.llm.embedding_calls import EmbeddingCaller
from graphrag_neo4j.settings import Settings

Row = dict[str, Any]
CONTEXT_STAGE = "report contexts"
# Communities per context read: a top-level community can bring thousands of rows alone.
CONTEXT_BATCH = 50


class ReportStore(Protocol):
    """What the stage needs of `Store`: named reads and batched row writes."""

    def read(self, name: str, **params: Any) -> list[Row]:
        """The rows of a named read statement."""
        ...

    def write_rows(self, name: str, rows: Sequence[Mapping[str, Any]], **params: Any) -> int:
        """Send rows to a named UNWIND write statement."""
        ...


@dataclass(frozen=True)
class PlannedReport:
    """One community's context, its hash, and whether the stored report still holds."""

    id: str
    context: ReportContext
    content_hash: str
    reusable: bool
    embedded: bool
    title: str
    summary: str


@dataclass
class ReportCounts:
    """How many reports a run generated, reused and had to replace by a fallback."""

    generated: int = 0
    reused: int = 0
    fallback: int = 0


def embedding_text(title: str, summary: str) -> str:
    """What a report's vector encodes: its title and summary (short enough for small models)."""
    return f"{title}\n{summary}"


class ReportStage:
    """Plans contexts from Neo4j and has the LLM write the reports that changed."""

    def __init__(
        self,
        store: ReportStore,
        settings: Settings,
        llm: LLMCaller | None = None,
        embedder: EmbeddingCaller | None = None,
    ) -> None:
        self.store = store
        self.budget = settings.communities.report_max_input_tokens
        self.llm = llm
        self.embedder = embedder
        self.counter = TokenCounter(settings.chunking.encoding)
        self.writer: ReportWriter | None = None
        self.identity = ""
        if llm is not None:
            self.writer = ReportWriter(
                llm, settings.communities.report_max_tokens, settings.prompts_dir
            )
            self.identity = self.writer.template_identity()
        self.counts = ReportCounts()
        # With the LLM cache on, asking again returns the same broken answer: keep the fallback.
        self.retry_fallbacks = llm is not None and llm.cache is None

    def _children(self, rows: Sequence[dict[str, Any]]) -> list[ChildReport]:
        """Sub-community reports, largest first (the order they stand in for members)."""
        children = [ChildReport(str(r["id"]), frozenset(r["members"]), str(r["full_content"]))
                    for r in rows]
        return sorted(children, key=lambda c: (-len(c.members), c.id))

    def _plan(self, row: dict[str, Any]) -> PlannedReport:
        context = build_context(entity_rows(row["entities"]), relation_rows(row["relations"]),
                                self._children(row["children"]), self.budget, self.counter)
        content_hash = context.content_hash(self.identity)
        status = row["report_status"]
        reusable = row["content_hash"] == content_hash and (
            status == "ok" or (status == "fallback" and not self.retry_fallbacks)
        )
        return PlannedReport(str(row["id"]), context, content_hash, reusable,
                             bool(row["embedded"]), str(row["title"] or ""),
                             str(row["summary"] or ""))

    def plan(self, ids: Sequence[str], advance: Callable[[int], None] | None = None
             ) -> list[PlannedReport]:
        """Read and build the contexts of these communities (blocking: run it in a thread)."""
        plans = []
        for start in range(0, len(ids), CONTEXT_BATCH):
            batch = list(ids[start : start + CONTEXT_BATCH])
            rows = self.store.read("communities/community_contexts", ids=batch)
            plans += [self._plan(row) for row in rows]
            if advance is not None:
                advance(len(batch))
        return plans

    async def run_level(self, level: int, ids: Sequence[str], progress: StageProgress) -> None:
        """Plan one level's contexts, generate the changed reports, store and embed them."""
        with progress.stage(CONTEXT_STAGE, add_total=len(ids)) as advance:
            plans = await asyncio.to_thread(self.plan, ids, advance)
        todo = [p for p in plans if not p.reusable]
        self.counts.reused += len(plans) - len(todo)
        with progress.stage(f"reports (level {level})", add_total=len(todo)) as advance:
            reports = await asyncio.gather(*(self._write(p, advance) for p in todo))
        with progress.stage("store reports", add_total=len(plans)) as advance:
            await self._store(todo, list(reports))
            await self._embed_reused([p for p in plans if p.reusable and not p.embedded])
            advance(len(plans))

    async def write_now(self, ids: Sequence[str],
                        advance: Callable[[int], None] | None = None) -> dict[str, Row]:
        """Write, store and embed these communities' reports now (lazy reports), by id.

        The rows are stored exactly as a build stores them. A crowded community's context
        reads its sub-communities' reports, or their extracts, as they stand.
        """
        plans = await asyncio.to_thread(self.plan, ids)
        reports = await asyncio.gather(*(self._write(p, advance) for p in plans))
        rows = await self._store(plans, list(reports))
        return {str(row["id"]): row for row in rows}

    async def _write(self, plan: PlannedReport,
                     advance: Callable[[int], None] | None = None) -> Report:
        assert self.writer is not None  # a stage without an LLM only plans
        report = await self.writer.write(plan.id, plan.context)
        self.counts.generated += 1
        self.counts.fallback += report.status == "fallback"
        if advance is not None:
            advance(1)
        return report

    async def _vectors(self, texts: list[str]) -> list[list[float]] | list[None]:
        if self.embedder is None or not texts:
            return [None] * len(texts)
        return await self.embedder.embed(texts)

    async def _store(self, plans: list[PlannedReport], reports: list[Report]) -> list[Row]:
        vectors = await self._vectors([embedding_text(r.title, r.summary) for r in reports])
        rows = [
            {"id": plan.id, "title": r.title, "summary": r.summary,
             "full_content": r.full_content, "rank": r.rating,
             "rating_explanation": r.rating_explanation, "findings": r.findings_json,
             "report_status": r.status, "content_hash": plan.content_hash, "embedding": vector}
            for plan, r, vector in zip(plans, reports, vectors, strict=True)
        ]
        await asyncio.to_thread(self.store.write_rows, "communities/set_community_reports", rows)
        return rows

    async def _embed_reused(self, plans: list[PlannedReport]) -> None:
        if self.embedder is None or not plans:
            return
        vectors = await self.embedder.embed([embedding_text(p.title, p.summary) for p in plans])
        rows = [{"id": p.id, "embedding": v} for p, v in zip(plans, vectors, strict=True)]
        await asyncio.to_thread(self.store.write_rows, "communities/set_community_embeddings", rows)
