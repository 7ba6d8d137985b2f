"""Writes the graph as Microsoft GraphRAG-shaped parquet tables, one file per table."""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from rich.table import Table

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.interop.parquet_communities import community_tables
from graphrag_neo4j.runtime.errors import InputError

Row = dict[str, Any]


@dataclass
class ExportReport:
    """Rows written per table file."""

    folder: Path
    rows: dict[str, int] = field(default_factory=dict)

    def table(self) -> Table:
        """The files written with their row counts."""
        table = Table("file", "rows", title=f"Exported to {self.folder}")
        for name, count in self.rows.items():
            table.add_row(f"{name}.parquet", f"{count:,}")
        return table


def unique_titles(entities: list[Row]) -> dict[str, str]:
    """Entity id -> a title no other entity has (GraphRAG joins relationships on titles)."""
    counts = Counter(str(e["name"]) for e in entities)
    titles: dict[str, str] = {}
    taken: set[str] = set()
    for e in entities:
        title = str(e["name"])
        if counts[title] > 1:
            title = f"{title} ({e['type']})"
        if title in taken:
            title = f"{title} [{e['id']}]"
        taken.add(title)
        titles[e["id"]] = title
    return titles


def _numbered(rows: list[Row]) -> list[Row]:
    return [{**row, "human_readable_id": n} for n, row in enumerate(rows)]


def document_table(documents: list[Row]) -> list[Row]:
    """Documents; their text is their chunks joined (chunk windows may overlap)."""
    return _numbered([
        {"id": d["id"], "title": d["title"], "text": "\n".join(d["texts"]),
         "text_unit_ids": d["chunk_ids"], "creation_date": d["indexed_at"] or ""}
        for d in documents
    ])


def text_unit_table(chunks: list[Row], relations: list[Row]) -> list[Row]:
    """Text units with the relationships each one states."""
    stated: dict[str, list[str]] = defaultdict(list)
    for rel in relations:
        for chunk_id in rel["chunk_ids"]:
            stated[chunk_id].append(rel["id"])
    return _numbered([
        {"id": c["id"], "text": c["text"], "n_tokens": c["n_tokens"] or 0,
         "document_id": c["document_id"], "entity_ids": c["entity_ids"],
         "relationship_ids": stated[c["id"]], "covariate_ids": c["covariate_ids"]}
        for c in chunks
    ])


def entity_table(entities: list[Row], titles: dict[str, str]) -> list[Row]:
    """Entities in GraphRAG's shape (types upper-cased as GraphRAG writes them)."""
    return _numbered([
        {"id": e["id"], "title": titles[e["id"]], "type": str(e["type"] or "").upper(),
         "description": e["description"], "text_unit_ids": e["chunk_ids"],
         "frequency": e["frequency"], "degree": e["degree"]}
        for e in entities
    ])


def relationship_table(relations: list[Row], titles: dict[str, str]) -> list[Row]:
    """Relationships joined to entity titles; `predicate` is an extra column of ours."""
    return _numbered([
        {"id": r["id"], "source": titles[r["source_id"]], "target": titles[r["target_id"]],
         "description": r["description"], "weight": float(r["weight"]),
         "combined_degree": r["combined_degree"], "text_unit_ids": r["chunk_ids"],
         "predicate": r["predicate"]}
        for r in relations
    ])


def _write(folder: Path, name: str, rows: list[Row]) -> int:
    pq.write_table(pa.Table.from_pylist(rows), folder / f"{name}.parquet")
    return len(rows)


def export_parquet(store: Store, folder: Path) -> ExportReport:
    """Read the graph with the export_* queries and write one parquet file per table."""
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder} is a file: pass a folder to export the tables into.")
    folder.mkdir(parents=True, exist_ok=True)
    entities = store.read("interop/export_entities")
    relations = store.read("interop/export_relations")
    titles = unique_titles(entities)
    communities, reports = community_tables(store.read("interop/export_communities"), relations,
                                            dt.date.today().isoformat())
    tables = {
        "documents": document_table(store.read("interop/export_documents")),
        "text_units": text_unit_table(store.read("interop/export_chunks"), relations),
        "entities": entity_table(entities, titles),
        "relationships": relationship_table(relations, titles),
        "communities": communities,
        "community_reports": reports,
    }
    covariates = store.read("interop/export_covariates")
    if covariates:
        tables["covariates"] = _numbered([
            {**{k: v for k, v in c.items() if k not in ("subject", "object", "chunk_id")},
             "subject_id": c["subject"], "object_id": c["object"], "text_unit_id": c["chunk_id"]}
            for c in covariates
        ])
    report = ExportReport(folder)
    for name, rows in tables.items():
        report.rows[name] = _write(folder, name, rows)
    return report

