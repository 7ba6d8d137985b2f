"""Lazy community reports for global and DRIFT search: pick communities by vector, write the
missing reports of the chosen ones through the report stage."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from rich.console import Console

from graphrag_neo4j.communities.extractive import STATUS as EXTRACTIVE
from graphrag_neo4j.communities.report_stage import ReportStage
from graphrag_neo4j.query.base import Query, Services
from graphrag_neo4j.query.context import Row, SearchContext
from graphrag_neo4j.query.retrieval.candidates import ann_candidates
from graphrag_neo4j.runtime.progress import StageProgress

PROGRESS_STAGE = "lazy community reports"
# The report fields a freshly written report replaces in a selected row.
REPORT_FIELDS = ("title", "summary", "full_content", "rank", "report_status")
# A level's share of the index's nearest neighbours varies with the question: ask for this many
# times what an even share would need.
LEVEL_MARGIN = 2


def waiting(rows: Sequence[Row]) -> list[Row]:
    """Rows that hold an extractive summary whose LLM report may be written lazily."""
    return [r for r in rows if r.get("report_status") == EXTRACTIVE
            and r.get("report_mode") != "none"]


def extractive(rows: Sequence[Row]) -> list[Row]:
    """Rows that hold an extractive summary (title and summary, no LLM report)."""
    return [r for r in rows if r.get("report_status") == EXTRACTIVE]


def is_lazy(waiting: bool, query: Query) -> bool:
    """Whether a level where some reports are `waiting` to be written has them written on
    demand for this query."""
    return query.search.lazy_report_budget > 0 and waiting


async def nearest(
    services: Services, vector: list[float], k: int, candidates: int, level: int | None = None
) -> list[Row]:
    """The k communities nearest the vector, of one level or of all (no LLM call).

    Rows carry `report_status` and `report_mode`, so `waiting` tells which reports are lazy.
    """
    return await asyncio.to_thread(
        services.store.read, "query/search/search_communities_by_vector", vector=vector,
        level=level, k=k, candidates=max(candidates, k, 1),
    )


async def nearest_at_level(
    services: Services, query: Query, level: int, at_level: int, total: int
) -> list[Row]:
    """The level's `lazy_report_budget` communities nearest the question (global search); the
    level holds `at_level` of all levels' `total` communities.

    The index holds every level, so it is asked for enough neighbours that the level's share
    of them likely holds k; only when it does not are all communities asked for (reading them
    all on every question grew with the corpus)."""
    vector = await services.embedder.embed_query(query.question)
    k = query.search.lazy_report_budget
    first = level_candidates(k, at_level, total)
    rows = await nearest(services, vector, k, first, level)
    if len(rows) >= k or first >= total:
        return rows
    return await nearest(services, vector, k, total, level)


def level_candidates(k: int, at_level: int, total: int) -> int:
    """Neighbours to ask the all-levels index for, to find k of one level holding `at_level`
    of `total` communities: enough that the level's expected share of them is k times
    LEVEL_MARGIN, and never fewer than the index needs to find its true nearest
    (`ann_candidates`); at most `total`.

    If they hold k of the level, those k are the level's nearest (any other community of the
    level is farther than all of them), so asking for more only costs time, and a deeper
    hierarchy (a smaller share per level) would make it grow with the corpus."""
    if at_level <= 0:
        return max(total, 1)
    wanted = max(ann_candidates(k), math.ceil(k * LEVEL_MARGIN * total / at_level))
    return max(1, min(total, wanted))


def selection_note(level: int, rows: Sequence[Row]) -> str:
    """What the lazy selection chose, for `context.notes`."""
    return (f"Level {level} has communities without an LLM report; chose the {len(rows)}"
            f" nearest the question ({len(waiting(rows))} of them without one yet).")


@dataclass(frozen=True)
class Written:
    """The selected rows with their fresh reports, and how many were written and reused."""

    rows: list[Row]
    written: int
    reused: int

    @property
    def note(self) -> str:
        """What writing cost this question, for `notes`."""
        return (f"Wrote {self.written} community report{'s' * (self.written != 1)} for this"
                f" question; {self.reused} reused.")


async def write_reports(services: Services, rows: Sequence[Row], budget: int) -> Written:
    """Have the LLM write the missing reports of the first `budget` waiting rows (the rows come
    nearest first), store them as a build does, and return the rows with those reports."""
    # Only the rows chosen by vector get reports: a global level read whole marks the rest
    # `nearest: False`, to be read by their extracts (DRIFT's rows are all chosen).
    chosen = [r for r in waiting(rows) if r.get("nearest", True)]
    todo = [str(r["id"]) for r in chosen[: max(budget, 0)]]
    written: dict[str, Row] = {}
    if todo:
        stage = ReportStage(services.store, services.settings, services.llm, services.embedder)
        # Each report is a long LLM call (~20 s offline): show a bar while the user waits.
        with StageProgress(Console(stderr=True)) as progress, \
                progress.stage(PROGRESS_STAGE, add_total=len(todo)) as advance:
            written = await stage.write_now(todo, advance)
    fresh = [{**row, **{k: written[row["id"]][k] for k in REPORT_FIELDS}}
             if row["id"] in written else row for row in rows]
    return Written(fresh, len(written), len(rows) - len(extractive(rows)))


async def write_missing(
    services: Services, query: Query, context: SearchContext,
    batches: Callable[[list[Row]], list[str]],
) -> SearchContext:
    """Global search: write the selected communities' missing reports (within the budget) and
    return the context re-batched over the fresh reports."""
    if context.selection is None or not context.selection.lazy:
        return context
    rows = context.sources.get("Reports", [])
    done = await write_reports(services, rows, query.search.lazy_report_budget)
    fresh = batches(done.rows)
    return replace(
        context, text="\n\n".join(fresh), sources={**context.sources, "Reports": done.rows},
        notes=[*context.notes, done.note], batches=fresh,
        selection=replace(context.selection, map_calls=len(fresh),
                          reports_written=done.written, reports_reused=done.reused),
    )
