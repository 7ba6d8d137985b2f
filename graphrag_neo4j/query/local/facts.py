"""Graph evidence as short numbered facts, each citing the shown passages it comes from."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from graphrag_neo4j.query.context import Row, TableBuilder


def source_refs(chunk_ids: Iterable[str], shown: Sequence[Row], key: str = "id") -> list[int]:
    """The numbers of the shown passages (rows whose `key` is a chunk id) among `chunk_ids`."""
    ref_of = {row[key]: row["ref"] for row in shown}
    return list(dict.fromkeys(ref_of[chunk] for chunk in chunk_ids if chunk in ref_of))


def fact_line(number: int, fact: str, sources: Sequence[int]) -> str:
    """`(n) fact [Data: Sources (i, j)]`: the citation in the form answers use."""
    cited = f" [Data: Sources ({', '.join(map(str, sources))})]" if sources else ""
    return f"({number}) {' '.join(fact.split())}{cited}"


def relation_fact(rel: Row, cooccurrence: str | None = None, cited: bool = False) -> str:
    """`source predicate target`, then its description when that says more.

    A co-occurrence (the `cooccurrence` predicate of fast extraction) states no relation: it
    reads as the two names appearing together, lest a small model take it for friendship or
    kinship, and when its passage is `cited` its description (sentences of that passage, out of
    their context) is left for the passage to say."""
    together = cooccurrence is not None and rel["predicate"] == cooccurrence
    if together:
        sentence = f"{rel['source']} and {rel['target']} are named together"
    else:
        sentence = f"{rel['source']} {rel['predicate']} {rel['target']}"
    description = " ".join(str(rel.get("description") or "").split())
    if not description or description.lower() == sentence.lower() or (together and cited):
        return sentence
    return f"{sentence}: {description}"


def stated_relations(rels: Iterable[Row], cooccurrence: str | None) -> list[Row]:
    """The relations that state something: a co-occurrence (fast extraction's `cooccurrence`
    predicate) says only that two names share a passage, and its description is a sentence
    cut out of that passage, which a small model reads as the relation (a clerk's family
    "cheerful with them" taken for his master's kindness); the passages say it in context."""
    return [rel for rel in rels if cooccurrence is None or rel.get("predicate") != cooccurrence]


def fact_cells(rel: Row, shown: Sequence[Row], cooccurrence: str | None) -> tuple[str, list[int]]:
    """A relation's (fact, cited passage numbers) for a `FactsBuilder`."""
    refs = source_refs(rel.get("chunk_ids") or (), shown)
    return relation_fact(rel, cooccurrence, cited=bool(refs)), refs


@dataclass
class FactsBuilder(TableBuilder):
    """A table whose rows are numbered facts with their passages: cells are (fact, refs)."""

    def header(self) -> str:
        """The title line only: a fact line carries its own number and citation."""
        return f"-----{self.title}-----"

    def line(self, number: int, cells: Sequence[Any]) -> str:
        """`(n) fact [Data: Sources (...)]`."""
        fact, sources = cells
        return fact_line(number, str(fact), list(sources))
