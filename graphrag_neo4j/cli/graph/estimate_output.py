"""`--estimate` of `index` and `communities`: run the estimate and print it (table or JSON)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from graphrag_neo4j.runtime.errors import InputError

if TYPE_CHECKING:
    from graphrag_neo4j.llm.costs.estimate import CostEstimate
    from graphrag_neo4j.settings import Settings

console = Console(stderr=True)
out = Console()


def print_estimate(estimate: CostEstimate, as_json: bool) -> None:
    """The estimate as JSON on stdout, or as the facts, the stage table and the notes."""
    if as_json:
        print(estimate.to_json())
        return
    facts = Table(title="Input", show_header=False)
    for name, value in estimate.facts.items():
        facts.add_row(name, f"{value:,}" if isinstance(value, int) else value)
    # Piped output gets rich's 80 columns, too narrow for the stage table.
    wide = out if out.is_terminal else Console(width=160)
    wide.print(facts)
    wide.print(estimate.table())
    if estimate.all_cached:
        out.print("Everything is indexed or cached: a run would cost nothing.")
    for note in estimate.notes:
        out.print(f"[dim]- {note}[/dim]", highlight=False)


def index_estimate(paths: list[Path] | None, triplets: Path | None, *, method: str | None,
                   no_cache: bool, communities: bool, reports: bool | None, as_json: bool
                   ) -> None:
    """`index --estimate`: what indexing `paths` (and its reports) would cost, written nowhere."""
    from graphrag_neo4j.engine import GraphRAG

    if triplets is not None or not paths:
        raise InputError("--estimate covers documents (LLM or fast extraction): give files or "
                         "folders; a --triplets corpus uses no LLM and costs nothing.")
    with GraphRAG(console=console, no_cache=no_cache) as rag:
        chosen = method or rag.settings.extraction.method
        with_reports = communities and (
            reports_by_default(rag.settings, chosen) if reports is None else reports)
        print_estimate(rag.estimate(paths, chosen, reports=with_reports), as_json)


def reports_by_default(settings: Settings, method: str) -> bool:
    """Whether a run indexing with `method` writes every community report, as `communities`
    decides: all of them after a method that has an LLM extract the graph; lazy or none are
    not paid by this run (global search writes lazy ones when a question needs them)."""
    from graphrag_neo4j.indexing.extraction.registry import llm_extracted

    mode = settings.communities.reports
    return mode == "all" if mode is not None else llm_extracted(method)


def communities_estimate(*, no_cache: bool, as_json: bool) -> None:
    """`communities --estimate`: what re-clustering and the reports would cost."""
    from graphrag_neo4j.engine import GraphRAG

    with GraphRAG(console=console, no_cache=no_cache) as rag:
        print_estimate(rag.estimate_communities(), as_json)
