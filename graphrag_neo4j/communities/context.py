"""The text a community report is written from, within a token budget, and its content hash."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from graphrag_neo4j.database.content_ids import content_id
from graphrag_neo4j.llm.tokens.counting import DEFAULT_ENCODING, count_tokens

ENTITY_HEADER = "-----Entities-----\nid|name|type|description|degree"
RELATION_HEADER = "-----Relationships-----\nid|source|target|predicate|description|weight"
REPORT_HEADER = "-----Reports of sub-communities-----"
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class EntityRow:
    """A member entity as the report context shows it."""

    id: str
    name: str
    type: str
    description: str
    degree: int

    @cached_property
    def line(self) -> str:
        """The row of the entity table (rendered once: a row is measured several times)."""
        return entity_line(self)


@dataclass(frozen=True)
class RelationRow:
    """A relation between two members; `degree` (both ends' degrees) orders relations."""

    id: str
    source_id: str
    source: str
    target_id: str
    target: str
    predicate: str
    description: str
    weight: float
    degree: int

    @cached_property
    def line(self) -> str:
        """The row of the relationship table."""
        return relation_line(self)


@dataclass(frozen=True)
class ChildReport:
    """A sub-community's report, which may stand in for its members in a crowded context."""

    id: str
    members: frozenset[str]
    full_content: str

    @cached_property
    def line(self) -> str:
        """The report as the context shows it."""
        return report_block(self)


@dataclass(frozen=True)
class ReportContext:
    """The context text and what it cites."""

    text: str
    tokens: int
    entity_ids: list[str]
    relation_ids: list[str]
    report_ids: list[str]
    member_names: list[str] = field(default_factory=list)

    def content_hash(self, *inputs: str) -> str:
        """Hash of the text and other report inputs (prompt, model): equal hash, same report."""
        return content_id("community-report", *inputs, self.text)


def _cell(text: object) -> str:
    """A table cell on one line, without the column separator."""
    return _SPACES.sub(" ", str(text)).replace("|", "/").strip()


def entity_line(row: EntityRow) -> str:
    """One row of the entity table."""
    return "|".join(_cell(v) for v in (row.id, row.name, row.type, row.description, row.degree))


def relation_line(row: RelationRow) -> str:
    """One row of the relationship table."""
    values = (row.id, row.source, row.target, row.predicate, row.description, f"{row.weight:g}")
    return "|".join(_cell(v) for v in values)


def report_block(child: ChildReport) -> str:
    """A sub-community report as the context shows it."""
    return f"Report {child.id}:\n{child.full_content.strip()}"


class TokenCounter:
    """Token counts of context pieces, remembered (an entity row recurs at every level)."""

    def __init__(self, encoding: str = DEFAULT_ENCODING) -> None:
        self.encoding = encoding
        self._known: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        count = self._known.get(text)
        if count is None:
            # +1 for the line break that joins the piece to the next one.
            count = count_tokens(text, self.encoding) + 1
            self._known[text] = count
        return count


def entity_rows(rows: Sequence[dict[str, Any]]) -> list[EntityRow]:
    """Entity rows from the context query, most connected first."""
    entities = [EntityRow(str(r["id"]), str(r["name"]), str(r["type"] or ""),
                          str(r["description"] or ""), int(r["degree"] or 0)) for r in rows]
    return sorted(entities, key=lambda e: (-e.degree, e.name, e.id))


def relation_rows(rows: Sequence[dict[str, Any]]) -> list[RelationRow]:
    """Relation rows from the context query, most connected and strongest first."""
    relations = [
        RelationRow(str(r["id"]), str(r["source_id"]), str(r["source"]), str(r["target_id"]),
                    str(r["target"]), str(r["predicate"] or ""), str(r["description"] or ""),
                    float(r["weight"] or 1.0), int(r["degree"] or 0))
        for r in rows
    ]
    return sorted(relations, key=lambda r: (-r.degree, -r.weight, r.id))


@dataclass
class _Parts:
    reports: list[ChildReport]
    entities: list[EntityRow]
    relations: list[RelationRow]


def _substitute(parts: _Parts, children: Sequence[ChildReport], budget: int,
                count: TokenCounter) -> _Parts:
    """Replace members by sub-community reports, largest first, until the context fits."""
    child_of = {m: child.id for child in children for m in child.members}
    internal: dict[str, list[RelationRow]] = defaultdict(list)
    for rel in parts.relations:
        owner = child_of.get(rel.source_id)
        if owner is not None and owner == child_of.get(rel.target_id):
            internal[owner].append(rel)
    by_id = {e.id: e for e in parts.entities}
    total = _measure(parts, count)
    used: list[ChildReport] = []
    for child in children:
        if total <= budget:
            break
        used.append(child)
        total += count(child.line)
        total -= sum(count(by_id[m].line) for m in child.members if m in by_id)
        total -= sum(count(r.line) for r in internal[child.id])
    covered = {m for child in used for m in child.members}
    replaced = {r.id for child in used for r in internal[child.id]}
    return _Parts(used, [e for e in parts.entities if e.id not in covered],
                  [r for r in parts.relations if r.id not in replaced])


def _measure(parts: _Parts, count: TokenCounter) -> int:
    total = sum(count(c.line) for c in parts.reports)
    total += sum(count(e.line) for e in parts.entities)
    total += sum(count(r.line) for r in parts.relations)
    return total + count(REPORT_HEADER) + count(ENTITY_HEADER) + count(RELATION_HEADER)


def _fit(parts: _Parts, budget: int, count: TokenCounter) -> tuple[_Parts, int]:
    """Keep reports, then entities, then relations, in priority order, while they fit."""
    kept = _Parts([], [], [])
    total = count(REPORT_HEADER) + count(ENTITY_HEADER) + count(RELATION_HEADER)
    sections: list[tuple[list[Any], list[Any]]] = [
        (parts.reports, kept.reports),
        (parts.entities, kept.entities),
        (parts.relations, kept.relations),
    ]
    for source, target in sections:
        for item in source:
            cost = count(item.line)
            if total + cost > budget:
                break
            target.append(item)
            total += cost
    return kept, total


def build_context(
    entities: list[EntityRow],
    relations: list[RelationRow],
    children: Sequence[ChildReport],
    budget: int,
    count: TokenCounter,
) -> ReportContext:
    """The context of one community: its members and relations, or sub-reports where crowded.

    `children` must come largest first; only those with a report can stand in for members.
    """
    parts = _Parts([], entities, relations)
    if children and _measure(parts, count) > budget:
        parts = _substitute(parts, children, budget, count)
    kept, tokens = _fit(parts, budget, count)
    sections = []
    if kept.reports:
        sections.append("\n\n".join([REPORT_HEADER, *(c.line for c in kept.reports)]))
    if kept.entities:
        sections.append("\n".join([ENTITY_HEADER, *(e.line for e in kept.entities)]))
    if kept.relations:
        sections.append("\n".join([RELATION_HEADER, *(r.line for r in kept.relations)]))
    return ReportContext(
        text="\n\n".join(sections),
        tokens=tokens,
        entity_ids=[e.id for e in kept.entities],
        relation_ids=[r.id for r in kept.relations],
        report_ids=[c.id for c in kept.reports],
        member_names=[e.name for e in entities],
    )
