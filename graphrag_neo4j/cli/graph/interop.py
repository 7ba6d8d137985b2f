"""`graphrag-neo4j import-msgraphrag | export-parquet`: Microsoft GraphRAG parquet interop."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from graphrag_neo4j.cli.options.workspace_option import WorkspaceOption, use_workspace

console = Console(stderr=True)


def import_msgraphrag_command(
    output_dir: Annotated[
        Path, typer.Argument(help="A Microsoft GraphRAG output folder (entities.parquet ...).")
    ],
    workspace: WorkspaceOption = None,
) -> None:
    """Import a Microsoft GraphRAG index (parquet tables) into the graph; re-running is a no-op."""
    use_workspace(workspace)
    from graphrag_neo4j.engine import GraphRAG

    with GraphRAG(console=console) as rag:
        report = rag.import_msgraphrag(output_dir)
    console.print(report.table())


def export_parquet_command(
    directory: Annotated[Path, typer.Argument(help="Folder to write the parquet tables into.")],
    workspace: WorkspaceOption = None,
) -> None:
    """Write the graph as Microsoft GraphRAG-shaped parquet tables."""
    use_workspace(workspace)
    from graphrag_neo4j.engine import GraphRAG

    with GraphRAG(console=console) as rag:
        report = rag.export_parquet(directory)
    console.print(report.table())
