"""`graphrag-neo4j import-msgraphrag | export-parquet`: Microsoft GraphRAG parquet interop."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

console = Console(stderr=True)


def import_msgraphrag_command(
    output_dir: Annotated[
        Path, typer.Argument(help="A Microsoft GraphRAG output folder (entities.parquet ...).")
    ],
) -> None:
    """Import a Microsoft GraphRAG index (parquet tables) into the graph; re-running is a no-op."""
    from graphrag_neo4j.engine import GraphRAG

    with GraphRAG(console=console) as rag:
        report = rag.import_msgraphrag(output_dir)
    console.print(report.table())


def export_parquet_command(
    directory: Annotated[Path, typer.Argument(help="Folder to write the parquet tables into.")],
) -> None:
    """Write the graph as Microsoft GraphRAG-shaped parquet tables."""
    from graphrag_neo4j.engine import GraphRAG

    with GraphRAG(console=console) as rag:
        report = rag.export_parquet(directory)
    console.print(report.table())
