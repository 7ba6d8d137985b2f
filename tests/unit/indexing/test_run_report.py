"""The indexing summary says what each count counts."""

from __future__ import annotations

from rich.console import Console

from graphrag_neo4j.indexing.run.run_report import IndexStats


def test_batch_sums_and_graph_counts_are_told_apart() -> None:
    stats = IndexStats(entities=2297, relations=5000, graph_entities=1120, graph_relations=3100)
    console = Console(width=120, record=True)
    console.print(stats.table())
    rows = {" ".join(cells.split()): value.strip()
            for line in console.export_text().splitlines() if line.count("│") == 3
            for cells, value in [line.strip("│").split("│")]}
    assert rows["entities written (summed over batches)"] == "2,297"
    assert rows["graph: entities"] == "1,120" and rows["graph: relations"] == "3,100"
    assert "entities" not in rows
