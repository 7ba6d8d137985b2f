"""DRIFT's pure steps: reading step replies, queueing follow-ups, and the reduce context."""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from graphrag_neo4j.llm.tokens.counting import count_tokens
from graphrag_neo4j.query.context import (
    Row,
    SearchContext,
    TableBuilder,
    join_tables,
)
from graphrag_neo4j.query.local.facts import FactsBuilder, fact_cells

_JSON_OBJECT = re.compile(r"\{.*\}", flags=re.DOTALL)
# Citations in a step's answer point at rows of that step's own context; the reduce renumbers
# every row, so they would mislead it.
_CITATION = re.compile(r"\s?\[Data:[^\]]*\]")
_PUNCTUATION = str.maketrans("", "", string.punctuation + "“”‘’¿¡")


@dataclass(frozen=True)
class Step:
    """One answered question: the primer's (depth 0) or a follow-up's."""

    question: str
    answer: str
    score: int
    follow_ups: tuple[str, ...]
    depth: int


@dataclass(frozen=True)
class FollowUp:
    """A question still to answer, ranked by the score of the answer that raised it."""

    question: str
    score: int
    depth: int


def _score(value: Any) -> int:
    try:
        return max(0, min(100, int(float(value))))
    except (TypeError, ValueError):
        return 0


def _questions(raw: Any) -> tuple[str, ...]:
    items = raw if isinstance(raw, list) else []
    texts = [item.get("question", "") if isinstance(item, dict) else item for item in items]
    return tuple(str(text).strip() for text in texts if str(text).strip())


def parse_step(reply: str, question: str, depth: int) -> Step:
    """A step from its JSON reply; a broken reply is an empty answer scoring 0."""
    match = _JSON_OBJECT.search(reply)
    data: Any = None
    if match is not None:
        try:
            data = json.loads(match.group(0))
        except json.JSONDecodeError:
            data = None
    if not isinstance(data, dict):
        return Step(question, "", 0, (), depth)
    answer = _CITATION.sub("", str(data.get("answer") or "")).strip()
    follow_ups = data.get("follow_ups", data.get("follow_up_queries"))
    return Step(question, answer, _score(data.get("score")) if answer else 0,
                _questions(follow_ups), depth)


def normalise(question: str) -> str:
    """A question's identity for deduplication: case, punctuation and spacing ignored."""
    return " ".join(question.lower().translate(_PUNCTUATION).split())


@dataclass
class FollowUpQueue:
    """Unanswered follow-ups, deduplicated against each other and everything already asked."""

    asked: set[str] = field(default_factory=set)
    pending: dict[str, FollowUp] = field(default_factory=dict)
    duplicates: int = 0

    def add(self, question: str, score: int, depth: int) -> None:
        """Queue a question unless it (or a spelling of it) was asked or is queued."""
        key = normalise(question)
        if not key:
            return
        if key in self.asked or key in self.pending:
            self.duplicates += 1
            queued = self.pending.get(key)
            if queued is not None and score > queued.score:
                self.pending[key] = FollowUp(queued.question, score, queued.depth)
            return
        self.pending[key] = FollowUp(question, score, depth)

    @classmethod
    def after_primer(cls, question: str, primer: Step) -> FollowUpQueue:
        """The primer's follow-ups (never the question again); without any, the question itself,
        so the primer's answer is still checked against the graph's details."""
        queue = cls()
        queue.mark_asked(question)
        queue.add_step(primer)
        if not queue.pending:
            queue.pending[normalise(question)] = FollowUp(question, primer.score, 1)
        return queue

    def add_step(self, step: Step) -> None:
        """Queue a step's follow-ups, ranked by how much its answer helped."""
        for question in step.follow_ups:
            self.add(question, step.score, step.depth + 1)

    def mark_asked(self, question: str) -> None:
        """Never queue this question (e.g. the user's own)."""
        self.asked.add(normalise(question))

    def take(self, k: int) -> list[FollowUp]:
        """The k best-scored pending follow-ups (first raised first on ties), marked asked."""
        ranked = sorted(self.pending.items(), key=lambda item: -item[1].score)[:k]
        for key, _ in ranked:
            del self.pending[key]
            self.asked.add(key)
        return [follow_up for _, follow_up in ranked]


def findings_block(steps: Sequence[Step], budget_tokens: int) -> str:
    """The `-----Findings-----` section: answers that helped, best first, within the budget."""
    lines = ["-----Findings-----"]
    used = count_tokens(lines[0])
    useful = sorted((s for s in steps if s.score > 0), key=lambda s: -s.score)
    for number, step in enumerate(useful, start=1):
        answer = " ".join(step.answer.split())
        line = f"({number}) score {step.score}. Q: {step.question} A: {answer}"
        cost = count_tokens(line) + 1
        if used + cost > budget_tokens:
            break
        lines.append(line)
        used += cost
    return "\n".join(lines) if len(lines) > 1 else ""


def merged_rows(
    contexts: Sequence[SearchContext], table: str, first: Sequence[Row] = ()
) -> list[Row]:
    """One table's rows across contexts, in order, each id once (old row numbers dropped)."""
    rows: dict[str, Row] = {}
    for row in [*first, *(r for c in contexts for r in c.sources.get(table, []))]:
        clean = {key: value for key, value in row.items() if key != "ref"}
        rows.setdefault(str(clean.get("id", json.dumps(clean, sort_keys=True, default=str))), clean)
    return list(rows.values())


# Table -> (columns, cells of a row, share of what the findings leave).
_TABLES: dict[str, tuple[list[str], Callable[[Row], Sequence[Any]], float]] = {
    "Reports": (["title", "content"],
                lambda r: (r.get("title", ""), r.get("summary") or r.get("full_content", "")),
                0.25),
    "Entities": (["entity", "type", "description"],
                 lambda r: (r.get("name", ""), r.get("type", ""), r.get("description", "")), 0.2),
}
RELATIONS_SHARE = 0.15


def reduce_context(
    steps: Sequence[Step],
    reports: Sequence[Row],
    contexts: Sequence[SearchContext],
    budget_tokens: int,
    cooccurrence: str | None = None,
) -> SearchContext:
    """Findings, then the follow-ups' relations as numbered facts citing their passages, the
    passages, and the primer's reports and the follow-ups' entities, merged and renumbered.

    `contexts` come best step first, so when the budget runs out the least useful rows go.
    """
    findings = findings_block(steps, budget_tokens // 3)
    room = budget_tokens - count_tokens(findings)
    tables: list[TableBuilder] = []
    left = 0
    for name, (columns, cells, share) in _TABLES.items():
        table = TableBuilder(name, columns, int(room * share) + left)
        left = table.fill(merged_rows(contexts, name, reports if name == "Reports" else ()), cells)
        tables.append(table)
    # The passages before the facts, so each fact can cite the ones shown; what they leave
    # goes to the facts.
    spent = sum(t.used_tokens for t in tables)
    sources = TableBuilder("Sources", ["text"], room - spent - int(room * RELATIONS_SHARE))
    left = sources.fill(merged_rows(contexts, "Sources"), lambda r: (r.get("text", ""),))
    relations = FactsBuilder("Relationships", [], int(room * RELATIONS_SHARE) + left)
    relations.fill(merged_rows(contexts, "Relationships"),
                   lambda r: fact_cells(r, sources.rows, cooccurrence))
    tables = [relations, sources, *tables]
    ranked = [doc for context in contexts for doc in context.ranked_document_ids]
    return SearchContext(
        text="\n\n".join(part for part in (findings, join_tables(tables)) if part),
        sources={t.title: t.rows for t in tables},
        ranked_document_ids=list(dict.fromkeys(ranked)),
    )
