"""Parsing JSON, JSONL and CSV text into numbered records, reporting bad records one by one."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from graphrag_neo4j.runtime.errors import InputError

# The csv module refuses fields over 128 KB by default; a document can be far longer.
_CSV_FIELD_LIMIT = 64 * 1024 * 1024

# (index in the file, label for messages such as "line 7", the record itself)
Record = tuple[int, str, dict[str, Any]]
# Receives one sentence about a skipped record; the caller logs and collects it.
ProblemSink = Callable[[str], None]


def file_records(text: str, path: Path, on_problem: ProblemSink) -> Iterator[Record]:
    """The records of a .json, .jsonl/.ndjson or .csv/.tsv file's text, chosen by suffix."""
    suffix = path.suffix.lower()
    if suffix in {".csv", ".tsv"}:
        return csv_records(text, path, delimiter="\t" if suffix == ".tsv" else ",")
    if suffix == ".json":
        return json_records(text, path, on_problem)
    return jsonl_records(text, path, on_problem)


def record_id(raw: object) -> str:
    """A record's own id as text, or "" when it has none (ids are strings or integers)."""
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        return ""  # bool is an int in Python, but never an id
    return str(raw).strip()


def id_problem(raw: object, field: str = "id") -> str | None:
    """Why a record's id field cannot be an id (an object, a list, a number with a fraction, a
    boolean), or None: a record is refused rather than given a generated id in silence."""
    if raw is None or isinstance(raw, str) or record_id(raw):
        return None
    return (f"has a {type(raw).__name__} in its {field!r} field; give a text or a whole number"
            " as the id, or leave the field out")


def json_records(
    text: str, path: Path, on_problem: ProblemSink, list_key: str | None = None
) -> Iterator[Record]:
    """Objects of a JSON list, or of the list under `list_key` (default: the first list)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "fix it, or name it .jsonl if it holds one object per line."
        ) from None
    return _objects_of(record_list(data, path, list_key), path, on_problem)


def record_list(data: object, path: Path, list_key: str | None = None) -> list[Any]:
    """The records of parsed JSON: the list itself, or the list of objects inside an object."""
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        if list_key is not None and isinstance(data.get(list_key), list):
            return list(data[list_key])
        for value in data.values():
            if isinstance(value, list) and any(isinstance(item, dict) for item in value):
                return value
        return [data]  # a lone object is one record
    raise InputError(
        f"{path} holds a JSON {type(data).__name__}; expected a list of objects or an "
        "object with such a list under a key."
    )


def _objects_of(items: list[Any], path: Path, on_problem: ProblemSink) -> Iterator[Record]:
    for index, item in enumerate(items):
        if isinstance(item, dict):
            yield index, f"record {index}", item
        else:
            on_problem(
                f"{path} record {index} is a {type(item).__name__}, not an object; "
                "make each record a JSON object."
            )


def jsonl_records(text: str, path: Path, on_problem: ProblemSink) -> Iterator[Record]:
    """One object per non-blank line; the index is the 0-based line number."""
    for index, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            on_problem(
                f"{path} line {index + 1} is not valid JSON ({exc.msg}, column {exc.colno}); "
                "fix that line (JSONL holds one JSON object per line)."
            )
            continue
        if isinstance(item, dict):
            yield index, f"line {index + 1}", item
        else:
            on_problem(f"{path} line {index + 1} holds a {type(item).__name__}, not an object.")


def csv_records(text: str, path: Path, *, delimiter: str = ",") -> Iterator[Record]:
    """One record per data row, keyed by the header; the index is the 0-based row number."""
    csv.field_size_limit(max(csv.field_size_limit(), _CSV_FIELD_LIMIT))
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for index, row in enumerate(reader):
            # Cells beyond the header land under the key None; they have no field name.
            yield index, f"line {reader.line_num}", {k: v for k, v in row.items() if k is not None}
    except csv.Error as exc:
        raise InputError(
            f"{path} line {reader.line_num} is not valid CSV ({exc}), so the rows from there on "
            "were skipped; fix the quoting there."
        ) from None
