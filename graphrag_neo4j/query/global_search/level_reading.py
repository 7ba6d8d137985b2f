"""What global search reads of a level without LLM reports: the whole level, within a budget.

A corpus-wide question needs a corpus-wide context. The communities nearest the question come
first (their reports are the ones written lazily), then the others largest first, each by its
LLM report or else its extractive summary, until `global.map_budget_tokens` is spent. What was
read is said as the share of the level's entities it covers (each community weighted by its
size), so the user sees what the answer stands on and which setting reads more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graphrag_neo4j.llm.tokens.counting import estimate_tokens
from graphrag_neo4j.query.context import Row


@dataclass(frozen=True)
class Coverage:
    """How much of one level the map stage reads."""

    level: int
    read: int
    communities: int
    entities_read: int
    entities: int
    budget_tokens: int

    @property
    def share(self) -> float:
        """The level's entities in the communities read, as a share (1.0 for an empty level)."""
        return self.entities_read / self.entities if self.entities else 1.0

    @property
    def note(self) -> str:
        """What was read, for the answer's notes."""
        more = "" if self.read == self.communities else (
            f"; global.map_budget_tokens ({self.budget_tokens:,}) reads more when raised")
        return (f"Read {self.read} of level {self.level}'s {self.communities} communities,"
                f" {self.share:.0%} of its {self.entities:,} entities{more}.")


def level_reading(
    level: int, nearest: Sequence[Row], level_rows: Sequence[Row], budget_tokens: int
) -> tuple[list[Row], Coverage]:
    """The rows to map (the nearest first, then the rest largest first) within the budget, and
    the coverage they give."""
    first = {str(row["id"]) for row in nearest}
    # The nearest rows are read as selected by vector: they carry the question's score.
    rest = sorted(({**row, "nearest": False} for row in level_rows
                   if str(row["id"]) not in first),
                  key=lambda row: (-_size(row), str(row["id"])))
    chosen: list[Row] = []
    used = 0
    for row in [*nearest, *rest]:
        cost = estimate_tokens(len(str(row.get("full_content") or "")))
        if chosen and used + cost > budget_tokens:
            continue  # a smaller community further on may still fit
        chosen.append(row)
        used += cost
    total = sum(_size(row) for row in level_rows)
    read = sum(_size(row) for row in chosen)
    return chosen, Coverage(level, len(chosen), len(level_rows), min(read, total), total,
                            budget_tokens)


def _size(row: Row) -> int:
    return int(row.get("size") or 0)
