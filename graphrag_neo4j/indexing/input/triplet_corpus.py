"""Reading passages with pre-extracted triplets (the "Graph RAG with Milvus" input), no LLM."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphrag_neo4j.indexing.input.loaders import read_text, title_from_text
from graphrag_neo4j.indexing.input.record_files import (
    Record,
    id_problem,
    jsonl_records,
    record_id,
    record_list,
)
from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.runtime.errors import InputError

Triplet = tuple[str, str, str]
EXPECTED_SHAPES = (
    'a JSON list of {"passage", "triplets"} objects (or an object with that list under '
    '"passages"), or JSONL with one {"id", "title", "text", "triplets"} object a line'
)
_TEXT_KEYS = ("passage", "text")

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TripletPassage:
    """One passage as a document, with the triplets extracted from it beforehand."""

    document: Document
    triplets: list[Triplet]


@dataclass
class TripletCorpus:
    """The passages read, a sentence per skipped record, and how many triplets were dropped."""

    passages: list[TripletPassage] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    dropped_triplets: int = 0

    @property
    def n_triplets(self) -> int:
        """How many triplets were kept over all passages."""
        return sum(len(passage.triplets) for passage in self.passages)

    def skip(self, reason: str) -> None:
        """Record one skipped line or record (and log it)."""
        logger.warning(reason)
        self.skipped.append(reason)


def read_triplet_corpus(path: Path) -> TripletCorpus:
    """Read a triplet corpus file; InputError when it is not JSON or JSONL of these shapes.

    * JSON: a list of ``{"passage": str, "triplets": [[s, p, o], ...]}`` objects, or an object
      with such a list under ``"passages"`` (the notebook's nano dataset). Such passages carry
      no id, so the document id is ``"{file stem}-{position}"`` (``nano_dataset-0`` ..
      ``nano_dataset-3``): the position stays recoverable and re-reading gives the same ids.
    * JSONL: one ``{"id", "title", "text", "triplets"}`` object a line (HippoRAG's MuSiQue).

    Either ``passage`` or ``text`` holds the text; a record's own ``id`` and ``title`` win, and
    a record without a title gets the first 60 characters of its text. Triplet parts are
    stripped; a triplet that is not three non-empty strings is dropped and counted.
    """
    if not path.is_file():
        raise InputError(f"Triplet corpus {path} does not exist or is not a file.")
    text = read_text(path)
    corpus = TripletCorpus()
    seen: set[str] = set()
    for index, label, record in _records(text, path, corpus):
        passage = _passage(record, index, label, path, corpus)
        if passage is None:
            continue
        if passage.document.id in seen:
            corpus.skip(
                f"{path} {label} repeats the id {passage.document.id!r}; only the first is kept."
            )
            continue
        seen.add(passage.document.id)
        corpus.passages.append(passage)
    if not corpus.passages:
        raise InputError(f"{path} holds no usable passage; expected {EXPECTED_SHAPES}.")
    return corpus


def _records(text: str, path: Path, corpus: TripletCorpus) -> Iterator[Record]:
    """JSON when the whole text parses as one value, else JSONL (which must parse somewhere)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return _jsonl_or_fail(text, path, corpus)
    items = record_list(data, path, list_key="passages")
    return _numbered_objects(items, path, corpus)


def _jsonl_or_fail(text: str, path: Path, corpus: TripletCorpus) -> Iterator[Record]:
    problems: list[str] = []
    records = list(jsonl_records(text, path, problems.append))
    if not records:
        raise InputError(f"{path} is neither JSON nor JSONL; expected {EXPECTED_SHAPES}.")
    for problem in problems:
        corpus.skip(problem)
    return iter(records)


def _numbered_objects(items: list[Any], path: Path, corpus: TripletCorpus) -> Iterator[Record]:
    for index, item in enumerate(items):
        if isinstance(item, dict):
            yield index, f"record {index}", item
        else:
            corpus.skip(f"{path} record {index} is not an object; expected {EXPECTED_SHAPES}.")


def _passage(
    record: dict[str, Any], index: int, label: str, path: Path, corpus: TripletCorpus
) -> TripletPassage | None:
    """The passage of one record, or None (with a message) when it has no text."""
    text = next((record[key] for key in _TEXT_KEYS if isinstance(record.get(key), str)), "")
    if not text.strip():
        corpus.skip(f"{path} {label} has no 'passage' or 'text' string; add the passage text.")
        return None
    problem = id_problem(record.get("id"))
    if problem:
        corpus.skip(f"{path} {label} {problem}.")
        return None
    own_id = record_id(record.get("id"))
    raw_title = record.get("title")
    title = raw_title.strip() if isinstance(raw_title, str) else ""
    document = Document(
        id=own_id or f"{path.stem}-{index}",
        title=title or title_from_text(text),
        source=f"{path}#{own_id or index}",
        text=text,
    )
    raw_triplets = record.get("triplets", [])
    if not isinstance(raw_triplets, list):
        # Not a skipped record (its passage is kept): counted as one malformed triplet.
        logger.warning("%s %s has 'triplets' that is not a list; kept without triplets.",
                       path, label)
        corpus.dropped_triplets += 1
        raw_triplets = []
    triplets = [triplet for item in raw_triplets if (triplet := _triplet(item)) is not None]
    malformed = len(raw_triplets) - len(triplets)
    if malformed:
        # Counted, not added to `skipped`: the passage itself is kept.
        logger.warning(
            "%s %s: %d of its %d triplets are not three non-empty strings; dropped.",
            path, label, malformed, len(raw_triplets),
        )
    corpus.dropped_triplets += malformed
    return TripletPassage(document=document, triplets=triplets)


def _triplet(item: object) -> Triplet | None:
    """(subject, predicate, object) with parts stripped, or None when malformed."""
    if not isinstance(item, list | tuple) or len(item) != 3:
        return None
    if not all(isinstance(part, str) and part.strip() for part in item):
        return None
    subject, predicate, obj = (str(part).strip() for part in item)
    return subject, predicate, obj
