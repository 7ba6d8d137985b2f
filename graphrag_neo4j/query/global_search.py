"""Global search: map community reports to scored points, reduce the best into one answer."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphrag_neo4j.llm.tokens import count_tokens
from graphrag_neo4j.query.community_selection import select_dynamically
from graphrag_neo4j.query.context import Row, history_block
from graphrag_neo4j.query.local import budgets
from graphrag_neo4j.records import Answer
from graphrag_neo4j.resources import load_prompt
from graphrag_neo4j.settings import SearchSettings

if TYPE_CHECKING:
    from graphrag_neo4j.engine import GraphRAG
    from graphrag_neo4j.llm.streaming import TokenSink

_JSON_OBJECT = re.compile(r"\{.*\}", flags=re.DOTALL)
NOTHING_RELEVANT = "The indexed data holds nothing relevant to this question."


@dataclass(frozen=True)
class Point:
    """One scored key point from a map call."""

    description: str
    score: int


@dataclass
class GlobalContext:
    """The reports chosen for the map step, cut into batches, and what choosing them cost."""

    level: int
    reports: list[Row]
    batches: list[str]
    notes: list[str] = field(default_factory=list)
    rating_calls: int = 0
    map_calls_saved: int = 0


def report_batches(reports: Sequence[Row], budget_tokens: int) -> list[str]:
    """Reports as `ref|title|content` tables, each filled up to the token budget."""
    batches: list[str] = []
    lines: list[str] = []
    used = 0
    for report in reports:
        line = f"{report['ref']}|{report['title']}|{' '.join(str(report['full_content']).split())}"
        cost = count_tokens(line)
        if lines and used + cost > budget_tokens:
            batches.append("id|title|content\n" + "\n".join(lines))
            lines, used = [], 0
        lines.append(line)
        used += cost
    if lines:
        batches.append("id|title|content\n" + "\n".join(lines))
    return batches


def choose_level(wanted: int, levels: Sequence[int]) -> int:
    """The wanted level if it has reports, else the deepest one above it, else the top one."""
    if wanted in levels:
        return wanted
    broader = [level for level in levels if level < wanted]
    return max(broader) if broader else min(levels)


def parse_points(reply: str) -> list[Point]:
    """Scored points from a map reply; a broken reply counts as no points."""
    match = _JSON_OBJECT.search(reply)
    if match is None:
        return []
    try:
        raw = json.loads(match.group(0)).get("points", [])
    except (json.JSONDecodeError, AttributeError):
        return []
    points = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict) and str(item.get("description", "")).strip():
            try:
                score = max(0, min(100, int(float(item.get("score", 0)))))
            except (TypeError, ValueError):
                score = 0
            points.append(Point(str(item["description"]).strip(), score))
    return points


def reduce_block(points: Sequence[Point], budget_tokens: int) -> str:
    """Non-zero points, best first, as long as they fit the budget."""
    kept: list[str] = []
    used = 0
    for number, point in enumerate(sorted(points, key=lambda p: -p.score), start=1):
        if point.score <= 0:
            continue
        text = f"----Analyst point {number}----\nImportance: {point.score}\n{point.description}"
        cost = count_tokens(text)
        if used + cost > budget_tokens:
            break
        kept.append(text)
        used += cost
    return "\n\n".join(kept)


@dataclass
class GlobalSearch:
    """Context builder (report selection) + map prompt + reduce prompt."""

    rag: GraphRAG

    async def _levels(self) -> list[int]:
        rows = await asyncio.to_thread(self.rag.store.read, "query/community_levels")
        return [int(row["level"]) for row in rows]

    async def _reports(self, level: int) -> list[Row]:
        rows = await asyncio.to_thread(
            self.rag.store.read, "query/community_reports_at_level", level=level
        )
        return [{**row, "ref": number} for number, row in enumerate(rows, start=1)]

    async def build_context(
        self, question: str, level: int | None = None, **overrides: Any
    ) -> GlobalContext:
        """Pick the level (or the deepest that exists) and its reports, batched for mapping."""
        search = budgets(self.rag.settings.search, overrides)
        levels = await self._levels()
        if not levels:
            return GlobalContext(-1, [], [], ["No community reports exist yet."])
        wanted = search.community_level if level is None else level
        chosen = choose_level(wanted, levels)
        context = GlobalContext(chosen, [], [])
        if chosen != wanted:
            context.notes.append(f"Level {wanted} has no reports; using level {chosen}.")
        everything = await self._reports(chosen)
        if search.dynamic_selection:
            selected, context.rating_calls = await select_dynamically(
                self.rag, question, chosen, search.dynamic_min_rating
            )
            context.reports = [{**row, "ref": n} for n, row in enumerate(selected, start=1)]
            full = len(report_batches(everything, search.map_batch_tokens))
            context.batches = report_batches(context.reports, search.map_batch_tokens)
            context.map_calls_saved = full - len(context.batches)
        else:
            context.reports = everything
            context.batches = report_batches(everything, search.map_batch_tokens)
        return context

    async def map(self, question: str, context: GlobalContext, history: str) -> list[Point]:
        """One map call per batch, concurrently; every point they return."""
        template = load_prompt("global_map", self.rag.settings.prompts_dir)
        prompts = [
            template.format(context=batch, question=question, history=history)
            for batch in context.batches
        ]
        replies = await asyncio.gather(
            *(self.rag.llm.complete(p, stage="global_map") for p in prompts)
        )
        return [point for reply in replies for point in parse_points(reply)]

    async def answer(
        self,
        question: str,
        *,
        level: int | None = None,
        response_type: str | None = None,
        history: Sequence[tuple[str, str]] | None = None,
        on_token: TokenSink | None = None,
        **overrides: Any,
    ) -> Answer:
        """Map over the chosen level; if nothing scores, try the next broader level once."""
        search: SearchSettings = budgets(self.rag.settings.search, overrides)
        past = history_block(history)
        context = await self.build_context(question, level, **overrides)
        points = await self.map(question, context, past) if context.batches else []
        if not any(p.score > 0 for p in points) and context.level > 0:
            context.notes.append(
                f"Nothing at level {context.level} scored above 0;"
                f" trying level {context.level - 1}."
            )
            broader = await self.build_context(question, context.level - 1, **overrides)
            broader.notes = context.notes + broader.notes
            context = broader
            points = await self.map(question, context, past) if context.batches else []
        block = reduce_block(points, search.reduce_tokens)
        if not block:
            if on_token is not None:
                on_token(NOTHING_RELEVANT)
            return self._answer(NOTHING_RELEVANT, context, points)
        prompt = load_prompt("global_reduce", self.rag.settings.prompts_dir).format(
            response_type=response_type or search.response_type,
            points=block,
            question=question,
            history=past,
        )
        text = await self.rag.llm.complete(prompt, stage="global_reduce", on_token=on_token)
        return self._answer(text, context, points, block)

    @staticmethod
    def _answer(
        text: str, context: GlobalContext, points: list[Point], block: str = ""
    ) -> Answer:
        notes = "\n".join(context.notes)
        return Answer(
            text=text,
            method="global",
            context=(notes + "\n\n" + block).strip(),
            sources={
                "Reports": context.reports,
                "Points": [{"description": p.description, "score": p.score} for p in points],
                "Notes": [{"text": note} for note in context.notes],
                "Selection": [
                    {
                        "level": context.level,
                        "map_calls": len(context.batches),
                        "rating_calls": context.rating_calls,
                        "map_calls_saved": context.map_calls_saved,
                    }
                ],
            },
        )
