"""Tables people copy from or read in a terminal 80 characters wide: nothing cut short."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table

from graphrag_neo4j.cli.graph.communities import levels_table
from graphrag_neo4j.cli.graph.index import documents_table, merges_table


def _shown(table: Table) -> str:
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(table)
    shown = console.export_text()
    assert all(len(line) <= 80 for line in shown.splitlines())
    return shown


def test_document_ids_are_whole() -> None:
    rows = [{"id": "188462d953e8baec", "title": "Graph RAG with Milvus", "chunks": 5,
             "complete": True, "extraction_method": "fast", "language": "en",
             "source": "/work/shared/seeds/graph_rag_with_milvus.en.md"}]
    shown = _shown(documents_table(rows))
    assert "188462d953e8baec" in shown and "…" not in shown


def test_every_community_level_header_is_whole() -> None:
    rows = [{"level": 0, "communities": 1_771, "members": 31_998, "largest": 3_468,
             "leaves": 1_690, "reports": 12, "fallbacks": 0, "extractive": 1_759}]
    shown = _shown(levels_table(rows))
    assert "…" not in shown and "31,998" in shown and "extracts" in shown


def test_merged_names_fold_and_merge_ids_are_whole() -> None:
    rows = [{"from_name": "Polish Army", "from_type": "organization",
             "into_name": "2nd Corps of the Polish Army", "decided_by": "alias",
             "reason": "'Polish Army' is a short form of '2nd Corps of the Polish Army'",
             "undone": False, "id": "53c7efc609a7868c"}]
    shown = _shown(merges_table(rows))
    assert "…" not in shown and "53c7efc609a7868c" in shown
