"""Shell commands that build and prune the graph: index, delete, documents, merges, unmerge."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from graphrag_neo4j.cli.graph.estimate_output import index_estimate
from graphrag_neo4j.cli.options.budget_options import MaxCost, MaxLLMCalls
from graphrag_neo4j.cli.options.ray_option import RayOption, run_settings
from graphrag_neo4j.cli.options.workspace_option import WorkspaceOption, use_workspace
from graphrag_neo4j.indexing.extraction.registry import (
    check_extraction_method,
    extraction_method_names,
)
from graphrag_neo4j.runtime.errors import InputError

console = Console(stderr=True)
out = Console()


def index_command(
    paths: Annotated[list[Path] | None, typer.Argument(help="Files or folders to index.")] = None,
    triplets: Annotated[
        Path | None,
        typer.Option(help="Passages with their own triplets (JSON or JSONL); no LLM is used."),
    ] = None,
    method: Annotated[
        str | None,
        typer.Option(help=f"Extraction: one of {', '.join(extraction_method_names())}; "
                     "default: the setting extraction.method."),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Ignore cached LLM replies.")
    ] = False,
    communities: Annotated[
        bool, typer.Option(help="Re-cluster communities afterwards (unchanged ones are reused).")
    ] = True,
    reports: Annotated[
        bool | None,
        typer.Option(help="Write all community reports now (default: yes when the graph holds"
                     " LLM-extracted documents; otherwise global search writes them lazily)."),
    ] = None,
    estimate: Annotated[
        bool, typer.Option(help="Print what the run would cost per stage; write nothing.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="With --estimate: JSON.")] = False,
    max_cost: MaxCost = None,
    max_llm_calls: MaxLLMCalls = None,
    follow_links: Annotated[
        bool, typer.Option(help="Follow links in folders to files outside them.")
    ] = False,
    shard: Annotated[
        str | None,
        typer.Option(help="Deprecated, use --ray. I/N: index only shard I of N (N workers, same"
                     " inputs, one Neo4j)."),
    ] = None,
    ray: RayOption = False,
    workspace: WorkspaceOption = None,
) -> None:
    """Index documents (LLM extraction) or a pre-extracted triplet corpus into Neo4j."""
    use_workspace(workspace)
    from graphrag_neo4j.engine import GraphRAG
    from graphrag_neo4j.indexing.input.sharding import parse_shard
    from graphrag_neo4j.llm.costs.budget import Budget

    if shard is not None:
        console.print(SHARD_DEPRECATED, style="yellow", highlight=False)
    if method is not None:
        check_extraction_method(method)
    if estimate:
        index_estimate(paths, triplets, method=method, no_cache=no_cache,
                       communities=communities, reports=reports, as_json=as_json)
        return
    if not paths and triplets is None:
        raise InputError("Nothing to index: give files or folders, or --triplets FILE.")
    part = parse_shard(shard) if shard is not None else None
    budget = Budget(max_cost, max_llm_calls)
    settings = run_settings(ray)
    with GraphRAG(settings=settings, console=console, no_cache=no_cache, budget=budget) as rag:
        if part is not None:
            console.print(f"Shard {part}: indexing the documents whose id hashes to it.")
        if triplets is not None:
            stats = rag.index_triplets(triplets, part)
        if paths:
            # The loader has logged each skipped input's reason already: the table counts them.
            stats, _ = rag.index(paths, method, follow_links=follow_links, shard=part)
        console.print(stats.table())
        mode = None if reports is None else "all" if reports else "none"
        built = rag.build_communities(reports=mode) if communities else None
        if built is not None:
            console.print(built.table())
            console.print(built.message, highlight=False)
        if rag.llm_in_use:
            console.print(rag.llm.usage_table())
        console.print(_counts_table(rag.counts()))


SHARD_DEPRECATED = ("`--shard` is deprecated and will be removed: to spread one corpus over many"
                    " processes or machines, run `index --ray` on a Ray cluster (docs/scale.md).")


# `delete` and `unmerge` alike: what leaves the graph leaves its communities.
UpdateCommunitiesOption = Annotated[
    bool, typer.Option(help="Update communities afterwards (entities that left are "
                            "dropped, nothing re-clustered but new entities).")
]


def _counts_table(counts: dict[str, int]) -> Table:
    table = Table(title="Graph now holds", show_header=False)
    for name, value in counts.items():
        table.add_row(name, f"{value:,}")
    return table


def delete_command(
    document_id: Annotated[str, typer.Argument(help="Id of the document to remove.")],
    communities: UpdateCommunitiesOption = True,
    workspace: WorkspaceOption = None,
) -> None:
    """Remove a document, its chunks and provenance, and entities/relations only it supported."""
    use_workspace(workspace)
    from graphrag_neo4j.engine import GraphRAG

    with GraphRAG(console=console) as rag:
        report = rag.delete(document_id)
        if communities:
            console.print(rag.build_communities(incremental=True).table())
        console.print(Text(
            f"Deleted document {report.document_id}: {report.chunks} chunks,"
            f" {report.entities_deleted} orphaned entities; re-described"
            f" {report.entities_refreshed} entities and {report.relations_refreshed} relations."
        ))


def documents_command(
    limit: Annotated[int, typer.Option(help="How many to list.")] = 50,
    skip: Annotated[int, typer.Option(help="How many to skip.")] = 0,
    workspace: WorkspaceOption = None,
) -> None:
    """List indexed documents with their ids (for `delete`)."""
    use_workspace(workspace)
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.settings import load_settings

    with Store.connect(load_settings().neo4j) as store:
        rows = store.read("indexing/documents/list_documents", skip=skip, limit=limit)
    out.print(documents_table(rows))


def documents_table(rows: list[dict[str, Any]]) -> Table:
    """One row per document, its id whole so it can be copied into `delete`."""
    table = Table()
    table.add_column("id", no_wrap=True)
    for header in ("title", "chunks", "done", "method", "lang"):
        table.add_column(header)
    table.add_column("source", overflow="fold")
    for row in rows:
        cells = ("id", "title", "chunks", "complete", "extraction_method", "language", "source")
        table.add_row(*(Text(str(row[key])) for key in cells))
    return table


def merges_command(
    show_undone: Annotated[bool, typer.Option(help="List undone merges too.")] = True,
    workspace: WorkspaceOption = None,
) -> None:
    """List recorded entity merges (the audit trail) with the ids `unmerge` takes."""
    use_workspace(workspace)
    from graphrag_neo4j.engine import GraphRAG

    with GraphRAG(console=console) as rag:
        rows = rag.merges()
    out.print(merges_table([row for row in rows if show_undone or not row["undone"]]))


def merges_table(rows: list[dict[str, Any]]) -> Table:
    """One row per merge; long names fold instead of being cut, the id stays whole."""
    table = Table()
    for header in ("merged", "into", "decided by", "reason", "undone"):
        table.add_column(header, overflow="fold")
    table.add_column("id", no_wrap=True)  # whole, so it can be copied into `unmerge`
    for row in rows:
        cells = (f"{row['from_name']} ({row['from_type']})", row["into_name"],
                 row["decided_by"], row["reason"] or "", "yes" if row["undone"] else "", row["id"])
        table.add_row(*(Text(cell) for cell in cells))
    return table


def unmerge_command(
    merge_id: Annotated[str, typer.Argument(help="Id of the merge to undo (see `merges`).")],
    communities: UpdateCommunitiesOption = True,
    workspace: WorkspaceOption = None,
) -> None:
    """Undo an LLM entity merge: the merged-away entity gets back its own mentions."""
    use_workspace(workspace)
    from graphrag_neo4j.engine import GraphRAG

    with GraphRAG(console=console) as rag:
        report = rag.unmerge(merge_id)
        if communities:
            console.print(rag.build_communities(incremental=True).table())
    console.print(Text(
        f"Undid merge {report.merge_id}: {report.restored_name!r} is its own entity again"
        f" ({report.restored_id}), apart from {report.into_name!r}, with {report.chunks} chunk"
        f" mentions and {report.relation_mentions} relation mentions; later runs will not merge"
        " them again."
    ))
