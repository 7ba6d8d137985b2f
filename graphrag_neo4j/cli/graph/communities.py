"""`graphrag-neo4j communities [--build]`: show the community hierarchy, or (re)build it."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from graphrag_neo4j.cli.options.budget_options import MaxCost, MaxLLMCalls
from graphrag_neo4j.cli.options.ray_option import RayOption, run_settings
from graphrag_neo4j.cli.options.workspace_option import WorkspaceOption, use_workspace
from graphrag_neo4j.runtime.errors import InputError

console = Console(stderr=True)
out = Console()


def communities_command(
    build: Annotated[
        bool, typer.Option(help="Re-cluster the entity graph and refresh the reports first.")
    ] = False,
    level: Annotated[
        int | None, typer.Option(help="List the largest communities of this level only.")
    ] = None,
    reports: Annotated[
        str | None,
        typer.Option(help="With --build: LLM community reports all (now), lazy (global search"
                     " writes those a question needs) or none; default lazy when no document"
                     " was indexed with LLM extraction, all otherwise."),
    ] = None,
    no_reports: Annotated[
        bool, typer.Option("--no-reports", help="Same as --reports none.")
    ] = False,
    top: Annotated[int, typer.Option(help="How many of the largest communities to list.")] = 10,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Ignore cached LLM replies.")
    ] = False,
    estimate: Annotated[
        bool, typer.Option(help="Print what --build would cost (reports); write nothing.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="With --estimate: JSON.")] = False,
    max_cost: MaxCost = None,
    max_llm_calls: MaxLLMCalls = None,
    ray: RayOption = False,
    workspace: WorkspaceOption = None,
) -> None:
    """Show communities per level and the largest ones; --build runs Leiden and the reports."""
    use_workspace(workspace)
    from graphrag_neo4j.cli.graph.estimate_output import communities_estimate
    from graphrag_neo4j.engine import GraphRAG
    from graphrag_neo4j.llm.costs.budget import Budget

    if estimate:
        communities_estimate(no_cache=no_cache, as_json=as_json)
        return
    budget = Budget(max_cost, max_llm_calls)
    if budget.active and not build:
        raise InputError("--max-cost and --max-llm-calls limit a build: add --build.")
    settings = run_settings(ray)
    with GraphRAG(settings=settings, console=console, no_cache=no_cache, budget=budget) as rag:
        if build:
            stats = rag.build_communities(reports="none" if no_reports else reports)
            console.print(stats.table())
            if stats.report_mode == "all":
                console.print(rag.llm.usage_table())
            console.print(stats.message, highlight=False)
        overview = rag.communities(limit=top, level=level)
    if not overview.levels:
        console.print("No communities yet: run `graphrag-neo4j communities --build`.")
        return
    out.print(levels_table(overview.levels))
    out.print(largest_table(overview.largest))
    if overview.warning:
        console.print(overview.warning, style="yellow", highlight=False)


def levels_table(rows: list[dict[str, Any]]) -> Table:
    """One row per level: how many communities, members, leaves and reports (LLM-written,
    fallbacks, extractive summaries); short headers, so 80 columns show them whole."""
    table = Table("level", "count", "members", "largest", "leaves", "reports", "fallbacks",
                  "extracts", title="Community hierarchy")
    for row in rows:
        table.add_row(*(f"{row[key] or 0:,}" for key in (
            "level", "communities", "members", "largest", "leaves", "reports", "fallbacks",
            "extractive")))
    return table


def largest_table(rows: list[dict[str, Any]]) -> Table:
    """The largest communities with their report titles."""
    table = Table("id", "level", "size", "chunks", "rank", "title", "parent",
                  title="Largest communities")
    for row in rows:
        title = Text(row["title"]) if row["title"] else Text("(no report yet)", style="dim")
        if row["report_status"] == "fallback":
            title.stylize("yellow")
        elif row["report_status"] == "extractive":
            title.append(" (extractive)")
            title.stylize("dim")
        rank = "" if row["rank"] is None else f"{row['rank']:g}"
        table.add_row(Text(row["id"]), str(row["level"]), f"{row['size']:,}",
                      f"{row['weight'] or 0:,}", rank, title, Text(row["parent_id"] or ""))
    return table
