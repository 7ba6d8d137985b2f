"""Dynamic community selection: rate reports from the root down, keep the relevant frontier."""

from __future__ import annotations

import asyncio
import json
import re
from typing import TYPE_CHECKING

from graphrag_neo4j.query.context import Row
from graphrag_neo4j.runtime.resources import load_prompt

if TYPE_CHECKING:
    from graphrag_neo4j.query.base import Services

_RATING = re.compile(r"\{.*\}", flags=re.DOTALL)
STAGE = "global_rate"


def parse_rating(reply: str) -> int:
    """The 0-10 rating in a reply; anything unreadable counts as 0 (not relevant)."""
    match = _RATING.search(reply)
    try:
        value = json.loads(match.group(0)).get("rating", 0) if match else 0
        return max(0, min(10, int(float(value))))
    except (json.JSONDecodeError, AttributeError, TypeError, ValueError):
        return 0


async def _rate(services: Services, question: str, reports: list[Row]) -> list[int]:
    template = load_prompt("query/global_search/rate", services.settings.prompts_dir)
    replies = await asyncio.gather(
        *(
            services.llm.complete(
                template.format(question=question, report=f"{r['title']}\n{r['summary']}"),
                stage=STAGE,
            )
            for r in reports
        )
    )
    return [parse_rating(reply) for reply in replies]


async def select_dynamically(
    services: Services, question: str, max_level: int, min_rating: int
) -> tuple[list[Row], int]:
    """Relevant reports from the root down; a relevant child replaces its parent."""
    store = services.store
    frontier = await asyncio.to_thread(
        store.read, "query/communities/community_reports_at_level", level=0
    )
    selected: dict[str, Row] = {}
    rating_calls = 0
    while frontier:
        ratings = await _rate(services, question, frontier)
        rating_calls += len(frontier)
        relevant = [r for r, rating in zip(frontier, ratings, strict=True) if rating >= min_rating]
        for report in relevant:
            selected.pop(report.get("parent_id", ""), None)
            selected[report["id"]] = {k: v for k, v in report.items() if k != "parent_id"}
        deeper = [r["id"] for r in relevant if int(r["level"]) < max_level]
        frontier = await asyncio.to_thread(
            store.read, "query/communities/community_children", ids=deeper
        )
    return list(selected.values()), rating_calls
