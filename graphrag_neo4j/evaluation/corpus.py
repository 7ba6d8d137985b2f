"""The graph an evaluation runs on: its triplet corpus indexed first (a no-op when done), or
the graph as it is; either said on the console."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

if TYPE_CHECKING:
    from graphrag_neo4j.engine import GraphRAG


def prepare_graph(
    rag: GraphRAG, corpus: Path | None, console: Console, count_reports: bool = False
) -> None:
    """Index `corpus` when given; without it, say what graph is evaluated (and, for answers,
    how many community reports it has written)."""
    if corpus is None:
        reports = f", {rag.written_reports()} written community reports" if count_reports else ""
        console.print(f"No --corpus: evaluating the graph as it is ({rag.counts()}{reports}).")
        return
    stats = rag.index_triplets(corpus)
    console.print(f"Corpus {corpus}: {stats.documents} documents indexed now,"
                  f" {stats.unchanged_documents} already there.")
