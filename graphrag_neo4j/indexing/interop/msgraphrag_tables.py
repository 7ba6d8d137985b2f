"""Finds and reads the parquet tables of a Microsoft GraphRAG output folder, any version."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from graphrag_neo4j.runtime.errors import InputError

Row = dict[str, Any]
REQUIRED = ("documents", "text_units", "entities", "relationships")
OPTIONAL = ("communities", "community_reports", "covariates")
TABLES = REQUIRED + OPTIONAL

# Our name for a column -> the names Microsoft GraphRAG versions gave it (v1+ first, v0.x after).
COLUMNS: dict[str, dict[str, tuple[str, ...]]] = {
    "documents": {
        "id": ("id",), "title": ("title",), "text": ("text", "raw_content"),
        "text_unit_ids": ("text_unit_ids",),
    },
    "text_units": {
        "id": ("id",), "text": ("text", "chunk"), "n_tokens": ("n_tokens",),
        "document_id": ("document_id", "document_ids"), "entity_ids": ("entity_ids",),
    },
    "entities": {
        "id": ("id",), "title": ("title", "name"), "type": ("type",),
        "description": ("description",), "text_unit_ids": ("text_unit_ids",),
        "frequency": ("frequency",), "degree": ("degree",),
    },
    "relationships": {
        "id": ("id",), "source": ("source",), "target": ("target",),
        "description": ("description",), "weight": ("weight",),
        "text_unit_ids": ("text_unit_ids",), "predicate": ("predicate",),
    },
    "communities": {
        "id": ("id",), "community": ("community", "id"), "level": ("level",),
        "parent": ("parent",), "title": ("title",), "entity_ids": ("entity_ids",),
        "relationship_ids": ("relationship_ids",), "size": ("size",),
    },
    "community_reports": {
        "community": ("community",), "title": ("title",), "summary": ("summary",),
        "full_content": ("full_content",), "rank": ("rank",),
        "rating_explanation": ("rating_explanation", "rank_explanation"),
        "findings": ("findings",),
    },
    "covariates": {
        "id": ("id",), "covariate_type": ("covariate_type",), "type": ("type",),
        "description": ("description",), "subject": ("subject_id",), "object": ("object_id",),
        "status": ("status",), "start_date": ("start_date",), "end_date": ("end_date",),
        "source_text": ("source_text",), "text_unit_id": ("text_unit_id",),
    },
}


@dataclass
class MsOutput:
    """The tables of one Microsoft GraphRAG output folder, rows keyed by our column names."""

    folder: Path
    tables: dict[str, list[Row]] = field(default_factory=dict)

    def rows(self, name: str) -> list[Row]:
        """The rows of a table, or none when that optional table is absent."""
        return self.tables.get(name, [])


def is_missing(value: Any) -> bool:
    """Null in any of the ways parquet and pandas spell it."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def text_of(value: Any) -> str:
    """A cell as text, empty when null."""
    return "" if is_missing(value) else str(value)


def number_of(value: Any, default: float) -> float:
    """A cell as a float, `default` when null."""
    return default if is_missing(value) else float(value)


def id_list(value: Any) -> list[str]:
    """A list column as a list of strings (absent or null means empty)."""
    if is_missing(value):
        return []
    if isinstance(value, str):
        return [value]
    return [str(item) for item in value if not is_missing(item)]


def findings_json(value: Any) -> str:
    """Report findings as our JSON list of {summary, explanation}."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            value = [{"summary": value, "explanation": ""}]
    findings = [
        {"summary": str(item.get("summary") or ""),
         "explanation": str(item.get("explanation") or "")}
        for item in (value if isinstance(value, list) else [])
        if isinstance(item, dict)
    ]
    return json.dumps(findings, ensure_ascii=False)


def _table_file(folder: Path, name: str) -> Path | None:
    for file_name in (f"{name}.parquet", f"create_final_{name}.parquet"):
        if (folder / file_name).is_file():
            return folder / file_name
    return None


def output_folder(path: Path) -> Path:
    """The folder holding the tables: PATH itself or the output folder of a run inside it."""
    if not path.is_dir():
        raise InputError(
            f"{path} is not a folder: pass the output folder of a Microsoft GraphRAG index"
            " (the one holding entities.parquet)."
        )
    # v1+ writes output/ directly; v0.x wrote output/<run timestamp>/artifacts/ (latest run first).
    runs = sorted(path.glob("output/*/artifacts"), reverse=True)
    for candidate in (path, path / "artifacts", path / "output", *runs):
        if _table_file(candidate, "entities") is not None:
            return candidate
    return path


def _canonical(rows: list[Row], columns: dict[str, tuple[str, ...]]) -> list[Row]:
    result = []
    for row in rows:
        canonical: Row = {}
        for ours, theirs in columns.items():
            values = [row[name] for name in theirs if not is_missing(row.get(name))]
            canonical[ours] = values[0] if values else None
        result.append(canonical)
    return result


def _read(file: Path) -> list[Row]:
    try:
        rows: list[Row] = pq.read_table(file).to_pylist()
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(
            f"{file} is not a readable parquet file ({exc}); export it again from GraphRAG."
        ) from exc
    return rows


def read_output(path: Path) -> MsOutput:
    """Every table of the folder; a missing required table is one clear error."""
    folder = output_folder(path)
    output = MsOutput(folder)
    for name in TABLES:
        file = _table_file(folder, name)
        if file is None:
            if name in REQUIRED:
                raise InputError(
                    f"{folder} has no {name}.parquet (nor create_final_{name}.parquet): pass"
                    " the output folder of a finished Microsoft GraphRAG index."
                )
            continue
        output.tables[name] = _canonical(_read(file), COLUMNS[name])
    return output
