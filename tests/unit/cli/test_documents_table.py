"""`documents` prints each id whole on an 80-column terminal, so it can be copied into `delete`."""

from __future__ import annotations

import io

from rich.console import Console

from graphrag_neo4j.cli.index import documents_table


def test_ids_are_whole_at_80_columns() -> None:
    rows = [{"id": "188462d953e8baec", "title": "Graph RAG with Milvus", "chunks": 5,
             "complete": True, "extraction_method": "fast", "language": "en",
             "source": "/work/shared/seeds/graph_rag_with_milvus.en.md"}]
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(documents_table(rows))
    shown = console.export_text()
    assert "188462d953e8baec" in shown
    assert all(len(line) <= 80 for line in shown.splitlines()) and "…" not in shown
