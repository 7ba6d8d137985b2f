"""Communities end to end: cluster, keep ids stable, write extracts, then reports bottom-up."""

from __future__ import annotations

import asyncio
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from graphrag_neo4j.communities.extractive_stage import (
    ExtractiveCounts,
    embed_unreported_extracts,
    write_extracts,
)
from graphrag_neo4j.communities.ids import IdAssignment, assign_ids
from graphrag_neo4j.communities.leiden import Hierarchy, cluster_graph, read_edges
from graphrag_neo4j.communities.local_clustering import recluster_changed
from graphrag_neo4j.communities.report_budget import ReportsStoppedError
from graphrag_neo4j.communities.report_mode import ReportMode
from graphrag_neo4j.communities.report_stage import ReportStage
from graphrag_neo4j.communities.writer import read_stored, write_structure
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.runtime.progress import StageProgress
from graphrag_neo4j.settings import Settings

READ_STAGE = "read entity graph"
LEIDEN_STAGE = "leiden"
WRITE_STAGE = "write communities"


@dataclass
class CommunityStats:
    """What a community run did, for the summary and for tests."""

    entities: int = 0
    clustered_entities: int = 0
    edges: int = 0
    communities_per_level: dict[int, int] = field(default_factory=dict)
    leaves: int = 0
    ids_kept: int = 0
    top_communities_kept: int = 0  # an incremental build's, kept with their subtrees (pruned)
    ids_new: int = 0
    communities_deleted: int = 0
    reports_generated: int = 0
    reports_reused: int = 0
    reports_fallback: int = 0
    report_mode: str = "all"
    extracts_written: int = 0
    extracts_unchanged: int = 0
    extract_vectors_kept: int = 0
    llm_reports_kept: int = 0
    too_small_for_reports: int = 0
    stage_seconds: dict[str, float] = field(default_factory=dict)
    message: str = ""

    @property
    def communities(self) -> int:
        """Communities over all levels."""
        return sum(self.communities_per_level.values())

    @property
    def unclustered_entities(self) -> int:
        """Entities without any relation, which belong to no community."""
        return self.entities - self.clustered_entities

    def table(self) -> Table:
        """The summary as a two-column table."""
        table = Table(title="Communities summary", show_header=False)
        rows: list[tuple[str, Any]] = [
            ("entities clustered", self.clustered_entities),
            ("entities without relations", self.unclustered_entities),
            ("edges (undirected)", self.edges),
            ("levels", len(self.communities_per_level)),
            *((f"communities at level {lvl}", n) for lvl, n in self.communities_per_level.items()),
            ("leaf communities", self.leaves),
            ("top communities kept, not re-clustered", self.top_communities_kept),
            ("ids kept", self.ids_kept),
            ("ids new", self.ids_new), ("communities deleted", self.communities_deleted),
            ("extractive summaries written", self.extracts_written),
            ("extractive summaries unchanged", self.extracts_unchanged),
            ("of those written, vectors kept (same text)", self.extract_vectors_kept),
            ("LLM reports kept as they are", self.llm_reports_kept),
            ("reports generated", self.reports_generated),
            ("reports reused", self.reports_reused),
            ("reports fallback", self.reports_fallback),
            ("too small for a report", self.too_small_for_reports),
        ]
        for name, value in rows:
            table.add_row(name, f"{value:,}")
        for stage, seconds in self.stage_seconds.items():
            table.add_row(f"time: {stage}", f"{seconds:.1f} s")
        return table


def members_by_id(hierarchy: Hierarchy, assignment: IdAssignment) -> dict[str, frozenset[str]]:
    """The member entity ids of each community, by community id."""
    return {assignment.ids[key]: c.members for key, c in hierarchy.clusters.items()}


def ids_at_level(hierarchy: Hierarchy, assignment: IdAssignment, level: int) -> list[str]:
    """The community ids of one level, sorted."""
    return sorted(assignment.ids[c.key] for c in hierarchy.at_level(level))


def _record_structure(stats: CommunityStats, hierarchy: Hierarchy, assignment: IdAssignment
                      ) -> None:
    stats.clustered_entities = len(hierarchy.entities)
    stats.communities_per_level = {lvl: len(hierarchy.at_level(lvl)) for lvl in hierarchy.levels}
    stats.leaves = len(hierarchy.clusters) - len(hierarchy.children())
    stats.ids_kept, stats.ids_new = len(assignment.kept), len(assignment.fresh)
    stats.communities_deleted = len(assignment.deleted)


async def cluster_and_write(
    store: Store, settings: Settings, stats: CommunityStats, progress: StageProgress,
    incremental: bool = False,
) -> tuple[Hierarchy, IdAssignment]:
    """Read the graph, run Leiden (`incremental`: only for entities without a community), match
    ids to the stored communities and write the structure."""
    with progress.stage(READ_STAGE, add_total=1) as advance:
        edges = await asyncio.to_thread(read_edges, store)
        counts = await asyncio.to_thread(store.read, "database/count_graph")
        stats.entities = int(counts[0]["entities"])
        stored = await asyncio.to_thread(read_stored, store)
        advance(1)
    stats.edges = len(edges)
    with progress.stage(LEIDEN_STAGE, add_total=1) as advance:
        if incremental:
            hierarchy, stats.top_communities_kept = await asyncio.to_thread(
                recluster_changed, edges, stored, settings.communities)
        else:
            hierarchy = await asyncio.to_thread(cluster_graph, edges, settings.communities)
        advance(1)
    with progress.stage(WRITE_STAGE, add_total=1) as advance:
        assignment = assign_ids(hierarchy, stored)
        await asyncio.to_thread(write_structure, store, hierarchy, assignment)
        advance(1)
    _record_structure(stats, hierarchy, assignment)
    return hierarchy, assignment


async def build_communities(
    store: Store,
    settings: Settings,
    llm: LLMCaller | None,
    embedder: EmbeddingCaller | None,
    console: Console,
    progress: StageProgress | None = None,
    *,
    reports: ReportMode = "all",
    incremental: bool = False,
) -> CommunityStats:
    """Re-cluster the entity graph, give every community an extract, and with `reports="all"`
    bring every LLM report up to date (`lazy` leaves them to global search, `none` to nobody).
    `incremental` keeps the stored communities less what left the graph (after a delete).

    Pass the indexer's `progress` to show the stages in its display; otherwise one is opened.
    """
    if reports == "all" and llm is None:
        raise ValueError("community reports need an LLM; pass one or reports='lazy' or 'none'")
    stats = CommunityStats(report_mode=reports)
    with ExitStack() as stack:
        if progress is None:
            progress = stack.enter_context(StageProgress(console))
        before = dict(progress.stage_seconds)
        hierarchy, assignment = await cluster_and_write(store, settings, stats, progress,
                                                        incremental)
        levels = {lvl: ids_at_level(hierarchy, assignment, lvl) for lvl in hierarchy.levels}
        members = members_by_id(hierarchy, assignment)
        # A report replaces its extract's vector: with every report written now, an extract
        # is embedded only if no report replaced it (after the reports, or a budget's stop).
        extracts = await write_extracts(
            store, settings.communities, settings.chunking.encoding, members, levels,
            None if reports == "all" else embedder, progress,
        )
        min_size = settings.communities.min_report_size
        await asyncio.to_thread(store.write, "communities/reports/set_report_mode", mode=reports,
                                min_size=min_size)
        stats.too_small_for_reports = sum(len(ids) < min_size for ids in members.values())
        stage = ReportStage(store, settings, llm, embedder)
        try:
            await _write_reports(stage, _reportable(levels, members, min_size, reports),
                                 progress)
        except ReportsStoppedError:
            await embed_unreported_extracts(store, embedder, progress)
            raise
        if reports == "all":
            await embed_unreported_extracts(store, embedder, progress)
        stats.stage_seconds = {name: seconds - before.get(name, 0.0) for name, seconds
                               in progress.stage_seconds.items()
                               if seconds != before.get(name)}
    _record_reports(stats, stage, extracts)
    stats.message = _closing_sentence(stats)
    return stats


def _reportable(levels: dict[int, list[str]], members: dict[str, frozenset[str]], min_size: int,
                reports: ReportMode) -> dict[int, list[str]]:
    """The communities a build writes reports for: with `reports="all"`, those of at least
    `min_size` members (a smaller one's extract stands; its report mode says 'none')."""
    if reports != "all":
        return {}
    return {lvl: [i for i in ids if len(members[i]) >= min_size] for lvl, ids in levels.items()}


async def _write_reports(stage: ReportStage, levels: dict[int, list[str]],
                         progress: StageProgress) -> None:
    """Every level's reports, deepest first: a crowded parent's context may use its
    children's reports. A run budget may stop it (ReportsStoppedError names what is left)."""
    order = sorted(levels, reverse=True)
    for index, level in enumerate(order):
        try:
            await stage.run_level(level, levels[level], progress)
        except ReportsStoppedError as stop:
            later = [i for lvl in order[index + 1 :] for i in levels[lvl]]
            raise await stage.stopped(stop, later) from stop


def _record_reports(stats: CommunityStats, stage: ReportStage, extracts: ExtractiveCounts
                    ) -> None:
    stats.reports_generated = stage.counts.generated
    stats.reports_reused = stage.counts.reused
    stats.reports_fallback = stage.counts.fallback
    stats.extracts_written = extracts.written
    stats.extracts_unchanged = extracts.unchanged
    stats.extract_vectors_kept = extracts.vectors_kept
    stats.llm_reports_kept = extracts.reports_kept


def _closing_sentence(stats: CommunityStats) -> str:
    if not stats.communities:
        return (f"The graph has no relations, so there are no communities"
                f" ({stats.entities:,} entities stay unclustered).")
    structure = (f"{stats.communities:,} communities on {len(stats.communities_per_level)}"
                 f" levels ({stats.unclustered_entities:,} entities without relations stay"
                 f" outside); extractive summaries: {stats.extracts_written:,} written,"
                 f" {stats.extracts_unchanged:,} unchanged")
    if stats.report_mode == "lazy":
        return (structure + "; LLM reports are lazy: global search writes them for the"
                " communities a question needs (search.lazy_report_budget per question).")
    if stats.report_mode == "none":
        return structure + "; no LLM reports (--reports none)."
    return (f"{structure}; reports: {stats.reports_generated:,} generated,"
            f" {stats.reports_reused:,} reused, {stats.reports_fallback:,} fallback.")


@dataclass(frozen=True)
class CommunityOverview:
    """The hierarchy at a glance: one row per level and the largest communities."""

    levels: list[dict[str, Any]]
    largest: list[dict[str, Any]]
    memberless: int = 0  # communities without members: a build stopped half-way

    @property
    def warning(self) -> str | None:
        """One sentence when communities have no members, else None."""
        if not self.memberless:
            return None
        return (f"{self.memberless:,} communities have no members (a community build was"
                " stopped before linking them): run `graphrag-neo4j communities --build` to"
                " rebuild them.")


def community_overview(store: Store, limit: int = 10, level: int | None = None
                       ) -> CommunityOverview:
    """Per level: communities, members, largest size, leaves, reports and fallbacks; and the
    `limit` biggest communities (optionally of one level) with their titles and ratings."""
    largest = store.read("communities/largest_communities", limit=limit, level=level)
    (memberless,) = store.read("communities/build/count_memberless_communities")
    return CommunityOverview(store.read("communities/community_overview"), largest,
                             memberless["memberless"])
