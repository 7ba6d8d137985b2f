"""Where each passage of an answer's Sources table lies: document, file, page or section."""

from __future__ import annotations

import asyncio
from pathlib import PurePath
from typing import Any

from graphrag_neo4j.citations import PLACE_KEYS
from graphrag_neo4j.query.base import Answer, GraphReader
from graphrag_neo4j.query.context import Row

SOURCES = "Sources"


def chunk_id(row: Row) -> str | None:
    """The chunk a Sources row shows (methods name it `chunk_id` or `id`)."""
    value = row.get("chunk_id") or row.get("id")
    return str(value) if value else None


async def place_sources(store: GraphReader, answer: Answer) -> Answer:
    """The answer with every Sources row's place added (one read for all of them)."""
    rows = answer.sources.get(SOURCES) or []
    ids = [found for row in rows if (found := chunk_id(row))]
    if not ids:
        return answer
    places = await asyncio.to_thread(store.read, "query/chunk_places", ids=list(dict.fromkeys(ids)))
    by_id = {place["chunk_id"]: dict(place) for place in places}
    for row in rows:
        place = by_id.get(chunk_id(row) or "")
        if place is not None:
            row.update({key: place.get(key) for key in PLACE_KEYS if key != "where"})
            row["where"] = where(place)
    return answer


def where(place: dict[str, Any]) -> str:
    """One line a reader can look up: "manual.pdf p. 12", "guide.docx, Install > Upgrading";
    the document alone for a chunk indexed before pages and sections were recorded."""
    name = _file_name(place.get("path")) or str(place.get("document") or "")
    first, last = place.get("page_start"), place.get("page_end")
    if first is not None:
        pages = f"p. {first}" if last in (None, first) else f"pp. {first}-{last}"
        return f"{name} {pages}".strip()
    section = place.get("section")
    return f"{name}, {section}" if name and section else section or name


def _file_name(path: object) -> str:
    """The file a document was read from (a record's `#id` kept), or "" when none."""
    if not isinstance(path, str) or not path:
        return ""
    return PurePath(path).name
