"""Splitting the inputs of one index run over N workers, deterministically, by document id.

`index --shard I/N` keeps the documents whose id hashes to shard I, so N processes (or
machines) given the same inputs write disjoint documents into one Neo4j; together they write
what one run would. Entities and relations they share meet in Neo4j, where the batch lock
(`Store.exclusive`) makes their resolution and writes take turns.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from graphrag_neo4j.runtime.errors import InputError

_SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")
T = TypeVar("T")


@dataclass(frozen=True)
class Shard:
    """Shard `index` (1-based) of `count`."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, document_id: str) -> bool:
        """Whether this shard indexes the document with this id (same answer everywhere)."""
        digest = hashlib.sha256(document_id.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1

    def select(self, items: Sequence[T], document_id: str = "id") -> list[T]:
        """The items (documents, or records with a `.document`) this shard indexes."""
        return [item for item in items if self.holds(_id_of(item, document_id))]


def _id_of(item: object, attribute: str) -> str:
    document = getattr(item, "document", item)
    return str(getattr(document, attribute))


def parse_shard(spec: str) -> Shard:
    """`"2/4"` -> Shard(2, 4); anything else is one sentence with the expected form."""
    match = _SPEC.match(spec)
    if match is None or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise InputError(
            f"--shard {spec!r} is not I/N with 1 <= I <= N (e.g. --shard 1/2 and --shard 2/2 on"
            " two workers)."
        )
    return Shard(int(match.group(1)), int(match.group(2)))
