"""Writes community reports bottom-up, level by level, reusing those whose inputs are unchanged."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from graphrag_neo4j.communities.context import (
    ChildReport,
    ReportContext,
    TokenCounter,
    build_context,
    entity_rows,
    relation_rows,
)
from graphrag_neo4j.communities.report_budget import (
    PromptTokens,
    ReportsStoppedError,
    first_call_tokens,
    refused_retry,
    reports_estimate,
    reports_that_fit,
    stop_before,
    stop_sentence,
)
from graphrag_neo4j.communities.reports import Report, ReportWriter
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.costs.budget import BudgetExceededError
from graphrag_neo4j.llm.costs.profile import ModelProfile
from graphrag_neo4j.runtime.progress import StageProgress
from graphrag_neo4j.settings import Settings

Row = dict[str, Any]
CONTEXT_STAGE = "report contexts"
STORE_STAGE = "store reports"
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
            rows = self.store.read("communities/reports/community_contexts", ids=batch)
            plans += [self._plan(row) for row in rows]
            if advance is not None:
                advance(len(batch))
        return plans

    async def run_level(self, level: int, ids: Sequence[str], progress: StageProgress) -> None:
        """Plan one level's contexts, generate the changed reports, store and embed them.

        Under a run budget, reports are written in rounds that fit it whatever the replies
        (see `reports_that_fit`); before one that could pass it, ReportsStoppedError is raised with
        the reports written so far stored.
        """
        with progress.stage(CONTEXT_STAGE, add_total=len(ids)) as advance:
            plans = await asyncio.to_thread(self.plan, ids, advance)
        todo = [p for p in plans if not p.reusable]
        self.counts.reused += len(plans) - len(todo)
        with progress.stage(STORE_STAGE, add_total=len(plans) - len(todo)) as advance:
            await self._embed_reused([p for p in plans if p.reusable and not p.embedded])
            advance(len(plans) - len(todo))
        tokens = await self._first_call_tokens(todo)
        # Reports the cache already holds are free: they go first, so a stop never skips them.
        order = sorted(range(len(todo)), key=lambda i: tokens[i] is not None)
        todo, tokens = [todo[i] for i in order], [tokens[i] for i in order]
        name, total = f"reports (level {level})", len(todo)
        with progress.stage(name, add_total=total):
            pass  # the bar with its whole size, also when nothing is left to write

        def where(offset: int) -> str:
            return f"report {total - len(todo) + offset + 1:,} of {total:,} on level {level}"

        while todo:
            count = self._reports_that_fit(tokens)
            if count == 0:
                assert self.llm is not None and self.llm.budget is not None  # else all fit
                raise stop_before(self.llm.budget, where(0), tokens, self._max_tokens)
            with progress.stage(name) as advance:
                results = await asyncio.gather(*(self._write(p, advance) for p in todo[:count]),
                                               return_exceptions=True)
            await self._settle(todo[:count], results, progress, tokens, where)
            todo, tokens = todo[count:], tokens[count:]

    @property
    def _max_tokens(self) -> int:
        return self.writer.max_tokens if self.writer is not None else 0

    async def _first_call_tokens(self, plans: Sequence[PlannedReport]) -> list[PromptTokens]:
        """Each plan's first-call prompt tokens (None: cached); only a budget needs them."""
        if self.llm is None or self.writer is None or self.llm.budget is None or not plans:
            return [None] * len(plans)
        return await asyncio.to_thread(first_call_tokens, self.llm, self.writer,
                                       [p.context.text for p in plans])

    def _reports_that_fit(self, tokens: Sequence[PromptTokens]) -> int:
        budget = self.llm.budget if self.llm is not None else None
        return len(tokens) if budget is None else reports_that_fit(budget, tokens,
                                                                   self._max_tokens)

    async def _settle(self, batch: list[PlannedReport], results: list[Report | BaseException],
                      progress: StageProgress, tokens: list[PromptTokens],
                      where: Callable[[int], str]) -> None:
        """Store a round's reports, then raise its first error; a retry the budget refused
        stops the run before that report (`where` names the round's reports by offset)."""
        done = [(p, r) for p, r in zip(batch, results, strict=True) if isinstance(r, Report)]
        with progress.stage(STORE_STAGE, add_total=len(done)) as advance:
            await self._store([p for p, _ in done], [r for _, r in done])
            advance(len(done))
        errors = {i: r for i, r in enumerate(results) if isinstance(r, BaseException)}
        for error in errors.values():
            if not isinstance(error, BudgetExceededError):
                raise error
        if errors:
            first = min(errors)
            left = [tokens[i] for i in errors] + tokens[len(batch):]
            raise refused_retry(cast(BudgetExceededError, errors[first]), where(first), left)

    async def stopped(self, stop: ReportsStoppedError, later_ids: Sequence[str]
                      ) -> ReportsStoppedError:
        """The stop with its one sentence: what was written, what is left (this level's rest
        and the later levels' reports, planned now) and their estimated cost."""
        assert self.llm is not None and self.llm.budget is not None  # only a budget stops
        plans = await asyncio.to_thread(self.plan, later_ids)
        left = stop.left + await self._first_call_tokens([p for p in plans if not p.reusable])
        rest = reports_estimate(ModelProfile.of(self.llm, None), left, self._max_tokens)
        sentence = stop_sentence(stop, self.counts.generated, self.counts.reused, len(left), rest,
                                 self.llm.budget.spent())
        return ReportsStoppedError(sentence, stop.limit, left)

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
        await asyncio.to_thread(
            self.store.write_rows, "communities/reports/set_community_reports", rows
        )
        return rows

    async def _embed_reused(self, plans: list[PlannedReport]) -> None:
        if self.embedder is None or not plans:
            return
        vectors = await self.embedder.embed([embedding_text(p.title, p.summary) for p in plans])
        rows = [{"id": p.id, "embedding": v} for p, v in zip(plans, vectors, strict=True)]
        await asyncio.to_thread(
            self.store.write_rows, "communities/reports/set_community_embeddings", rows
        )
