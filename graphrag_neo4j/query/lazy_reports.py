"""Lazy community reports for global search: pick communities by vector, write missing reports."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace

from rich.console import Console

from graphrag_neo4j.communities.extractive import STATUS as EXTRACTIVE
from graphrag_neo4j.communities.report_stage import ReportStage
from graphrag_neo4j.indexing.progress import StageProgress
from graphrag_neo4j.query.base import Query, Services
from graphrag_neo4j.query.context import Row, SearchContext

PROGRESS_STAGE = "lazy community reports"
# The report fields a freshly written report replaces in a selected row.
REPORT_FIELDS = ("title", "summary", "full_content", "rank", "report_status")


def waiting(rows: Sequence[Row]) -> list[Row]:
    """Rows that hold an extractive summary whose LLM report may be written lazily."""
    return [r for r in rows if r.get("report_status") == EXTRACTIVE
            and r.get("report_mode") != "none"]


def is_lazy(rows: Sequence[Row], query: Query) -> bool:
    """Whether this level's reports are written on demand for this query."""
    return query.search.lazy_report_budget > 0 and bool(waiting(rows))


async def nearest(services: Services, query: Query, level: int, communities: int) -> list[Row]:
    """The level's `lazy_report_budget` communities nearest the question (no LLM call)."""
    vector = await services.embedder.embed_query(query.question)
    return await asyncio.to_thread(
        services.store.read, "query/search_communities_by_vector", vector=vector,
        level=level, k=query.search.lazy_report_budget, candidates=max(communities, 1),
    )


def selection_note(level: int, rows: Sequence[Row], waiting_total: int) -> str:
    """What the lazy selection chose, for `context.notes`."""
    return (f"Level {level} has {waiting_total:,} communities without an LLM report; chose the"
            f" {len(rows)} nearest the question ({len(waiting(rows))} of them without one yet).")


async def write_missing(
    services: Services, query: Query, context: SearchContext,
    batches: Callable[[list[Row]], list[str]],
) -> SearchContext:
    """Have the LLM write the selected communities' missing reports (within the budget), store
    them like built ones, and return the context re-batched over the fresh reports."""
    if context.selection is None or not context.selection.lazy:
        return context
    rows = context.sources.get("Reports", [])
    todo = [str(r["id"]) for r in waiting(rows)[: query.search.lazy_report_budget]]
    written: dict[str, Row] = {}
    if todo:
        stage = ReportStage(services.store, services.settings, services.llm, services.embedder)
        # Each report is a long LLM call (~20 s offline): show a bar while the user waits.
        with StageProgress(Console(stderr=True)) as progress, \
                progress.stage(PROGRESS_STAGE, add_total=len(todo)) as advance:
            written = await stage.write_now(todo, advance)
    reports = [{**row, **{k: written[row["id"]][k] for k in REPORT_FIELDS}}
               if row["id"] in written else row for row in rows]
    fresh = batches(reports)
    reused = len(rows) - len(waiting(rows))
    note = (f"Wrote {len(written)} community report{'s' * (len(written) != 1)} for this"
            f" question; {reused} reused.")
    return replace(
        context, text="\n\n".join(fresh), sources={**context.sources, "Reports": reports},
        notes=[*context.notes, note], batches=fresh,
        selection=replace(context.selection, map_calls=len(fresh),
                          reports_written=len(written), reports_reused=reused),
    )
