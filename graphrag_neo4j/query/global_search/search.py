"""Global search: map community reports to scored points, reduce the best into one answer."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from dataclasses import dataclass

from graphrag_neo4j.communities.extractive import STATUS as EXTRACTIVE
from graphrag_neo4j.llm.tokens.counting import count_tokens, estimate_tokens
from graphrag_neo4j.query.answers.grounded_stream import grounded_sink
from graphrag_neo4j.query.base import Answer, Note, Query, Services
from graphrag_neo4j.query.context import CommunitySelection, Row, SearchContext, history_block
from graphrag_neo4j.query.global_search.community_selection import select_dynamically
from graphrag_neo4j.query.global_search.lazy_reports import (
    is_lazy,
    nearest_at_level,
    selection_note,
    write_missing,
)
from graphrag_neo4j.query.global_search.level_reading import level_reading
from graphrag_neo4j.query.global_search.points import (
    CITED_FOR_THE_MODEL,
    Point,
    batch_refs,
    cited_answer,
    parse_points,
    reduce_block,
    reduced_points,
)
from graphrag_neo4j.runtime.resources import load_prompt

NOTHING_RELEVANT = "The indexed data holds nothing relevant to this question."


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


def unread_map_calls(batches: Sequence[str], read: int, communities: int, budget: int) -> int:
    """Map calls the whole level would have cost, less those made: the reports read stand for
    the level's others (reading every report's text to count it grew with the corpus)."""
    if read <= 0 or not batches:
        return 0
    per_report = estimate_tokens(sum(len(batch) for batch in batches)) / read
    return max(0, math.ceil(per_report * communities / budget) - len(batches))


def choose_level(wanted: int, levels: Sequence[int]) -> int:
    """The wanted level if it has reports, else the deepest one above it, else the top one."""
    if wanted in levels:
        return wanted
    broader = [level for level in levels if level < wanted]
    return max(broader) if broader else min(levels)


@dataclass
class GlobalSearch:
    """Context builder (report selection) + map prompt + reduce prompt."""

    services: Services
    name = "global"
    description = (
        "Broad questions about the whole collection (main themes, overall summaries): reads"
        " the community reports of one level and combines their relevant points, with several"
        " LLM calls."
    )
    streams = True
    needs_llm = False
    ranks_documents = False

    async def _levels(self) -> dict[int, int]:
        """Communities per level that have a report or an extractive summary."""
        rows = await asyncio.to_thread(
            self.services.store.read, "query/communities/community_levels"
        )
        return {int(row["level"]): int(row["communities"]) for row in rows}

    async def _reports(self, level: int) -> list[Row]:
        rows = await asyncio.to_thread(
            self.services.store.read, "query/communities/community_reports_at_level", level=level
        )
        return numbered(rows)

    async def build_context(self, query: Query) -> SearchContext:
        """Pick the level (or the deepest that exists) and its reports, batched for mapping.

        A level lacking LLM reports (lazy) gives the communities nearest the question instead;
        the context then shows their reports or extractive summaries and writes nothing.
        """
        search = query.search
        wanted = chosen = search.global_.community_level
        status = await self._status(wanted)
        if not status["communities"]:
            # Only then are the levels listed: that reads every community.
            levels = await self._levels()
            if not levels:
                return SearchContext("", {"Reports": []},
                                     notes=["No community reports exist yet."])
            chosen = choose_level(wanted, list(levels))
            status = await self._status(chosen)
        notes = [] if chosen == wanted else [f"Level {wanted} has no reports; using {chosen}."]
        budget = search.global_.map_batch_tokens
        rating_calls, saved = 0, 0
        lazy = is_lazy(status["waiting"], query)
        if lazy:
            # The nearest communities get their reports written; the whole level is read,
            # within the map budget, by reports or extractive summaries.
            nearest = await nearest_at_level(
                self.services, query, chosen, status["communities"], status["total"])
            rows, coverage = level_reading(chosen, nearest, await self._reports(chosen),
                                           search.global_.map_budget_tokens)
            reports = numbered(rows)
            notes.extend([selection_note(chosen, nearest), coverage.note])
            batches = report_batches(reports, budget)
            saved = unread_map_calls(batches, len(reports), status["communities"], budget)
        else:
            reports = await self._reports(chosen)
            batches = report_batches(reports, budget)
            if search.global_.dynamic_selection:
                selected, rating_calls = await select_dynamically(
                    self.services, query.question, chosen, search.global_.dynamic_min_rating
                )
                reports, every_batch = numbered(selected), len(batches)
                batches = report_batches(reports, budget)
                saved = every_batch - len(batches)
        return SearchContext(
            text="\n\n".join(batches),
            sources={"Reports": reports},
            notes=notes,
            batches=batches,
            selection=CommunitySelection(chosen, len(batches), rating_calls, max(saved, 0),
                                         lazy=lazy),
        )

    async def _status(self, level: int) -> Row:
        """The level's communities, whether some wait for a lazy report, all levels' count."""
        rows = await asyncio.to_thread(
            self.services.store.read,
            "query/communities/community_level_status",
            level=level,
            extractive=EXTRACTIVE,
        )
        return rows[0]

    async def _context(self, query: Query) -> SearchContext:
        """The context with the lazy reports it selected written (answers only)."""
        context = await self.build_context(query)
        budget = query.search.global_.map_batch_tokens
        return await write_missing(
            self.services, query, context, lambda rows: report_batches(rows, budget)
        )

    async def map(self, query: Query, context: SearchContext) -> list[Point]:
        """One map call per batch, concurrently; every point they return."""
        template = load_prompt("query/global_search/map", self.services.settings.prompts_dir)
        history = history_block(query.history)
        prompts = [
            template.format(context=batch, question=query.question, history=history)
            for batch in context.batches
        ]
        replies = await asyncio.gather(
            *(self.services.llm.complete(p, stage="global_map") for p in prompts)
        )
        return [
            point
            for reply, batch in zip(replies, context.batches, strict=True)
            for point in parse_points(reply, batch_refs(batch))
        ]

    async def _mapped(self, query: Query) -> tuple[SearchContext, list[Point]]:
        """Map over the chosen level; if nothing scores, try the next broader level once."""
        context = await self._context(query)
        points = await self.map(query, context)
        selection = context.selection
        level = selection.level if selection else -1
        if any(p.score > 0 for p in points) or level <= 0:
            return context, points
        notes = [
            *context.notes, f"Nothing at level {level} scored above 0; trying level {level - 1}."
        ]
        # One question's lazy report budget covers both levels.
        left = query.search.lazy_report_budget - (selection.reports_written if selection else 0)
        broader = await self._context(
            query.with_search(global_={"community_level": level - 1},
                              lazy_report_budget=max(0, left))
        )
        broader.notes = notes + broader.notes
        return broader, await self.map(query, broader)

    async def answer(self, query: Query) -> Answer:
        """Map, then reduce the best points into one answer (streamed if asked)."""
        context, points = await self._mapped(query)
        used = reduced_points(points, query.search.global_.reduce_tokens)
        block = reduce_block(used)
        notes: list[str] = []
        if block:
            template = load_prompt("query/global_search/reduce", self.services.settings.prompts_dir)
            prompt = template.format(
                response_type=query.response_type,
                points=block,
                question=query.question,
                history=history_block(query.history),
            )
            grounded = grounded_sink(query, context.sources)
            text = await self.services.llm.complete(
                prompt, stage="global_reduce", on_token=grounded
            )
            if grounded is not None:
                grounded.finish()
            shown = {str(row["ref"]) for row in context.sources.get("Reports", [])}
            text, added = cited_answer(text, used, shown)
            if added:
                notes.append(CITED_FOR_THE_MODEL)
                if query.on_token is not None:
                    query.on_token(text[text.rindex(" [Data:"):])
        else:
            text = NOTHING_RELEVANT
            if query.on_token is not None:
                query.on_token(text)
        answer = Answer.from_context(self.name, text, context)
        answer.notes.extend(Note.info(note) for note in notes)
        # The reduce read the map's points, written by the model: the reports are the evidence.
        answer.evidence = context.text
        answer.context = ("\n".join(context.notes) + "\n\n" + block).strip()
        answer.sources["Points"] = [
            {"description": p.description, "score": p.score, "reports": list(p.reports)}
            for p in points
        ]
        return answer

    async def rank_documents(self, query: Query, k: int) -> list[str]:  # noqa: ARG002
        """Global search reads community reports, not passages: it ranks no documents."""
        return []

    def close(self) -> None:
        """Nothing to release: the method reads through the engine's store."""


def numbered(rows: Sequence[Row]) -> list[Row]:
    """Rows with their 1-based `ref`, as the map prompt cites them."""
    return [{**row, "ref": number} for number, row in enumerate(rows, start=1)]
