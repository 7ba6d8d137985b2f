"""Data tables for answer prompts: numbered rows packed into token budgets, with their sources."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from graphrag_neo4j.llm.tokens.counting import count_tokens, get_encoding

Row = dict[str, Any]


@dataclass(frozen=True)
class CommunitySelection:
    """Which community level a global answer mapped over and what choosing reports cost.

    `lazy`: the communities were chosen by vector because the level lacks LLM reports; the
    answer then wrote `reports_written` of them and found `reports_reused` already written.
    """

    level: int
    map_calls: int
    rating_calls: int = 0
    map_calls_saved: int = 0
    lazy: bool = False
    reports_written: int = 0
    reports_reused: int = 0


@dataclass
class SearchContext:
    """What a context builder found: prompt text, the rows behind each table, ranked documents.

    `batches` are the pieces a map step reads one call each (global search); `notes` say what
    the builder fell back to; `selection` is global search's choice of communities.
    """

    text: str
    sources: dict[str, list[Row]] = field(default_factory=dict)
    ranked_document_ids: list[str] = field(default_factory=list)
    score: float = 0.0
    notes: list[str] = field(default_factory=list)
    batches: list[str] = field(default_factory=list)
    selection: CommunitySelection | None = None

    @property
    def is_empty(self) -> bool:
        """Whether the search found nothing to answer from."""
        return not any(self.sources.values())


def documents_in_order(rows: Sequence[Row]) -> list[str]:
    """Distinct document ids in the order their rows rank."""
    return list(dict.fromkeys(str(row["document_id"]) for row in rows))


def _cell(value: Any) -> str:
    # Table cells live on one line; pipes would break the columns.
    return " ".join(str(value if value is not None else "").split()).replace("|", "/")


@dataclass
class TableBuilder:
    """Builds one `-----Title-----` table row by row until its token budget is spent."""

    title: str
    columns: Sequence[str]
    budget_tokens: int
    rows: list[Row] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    used_tokens: int = 0

    def __post_init__(self) -> None:
        header = self.header()
        self.lines.append(header)
        self.used_tokens = count_tokens(header)

    def header(self) -> str:
        """The title line and the column names."""
        return f"-----{self.title}-----\n" + "|".join(["id", *self.columns])

    def line(self, number: int, cells: Sequence[Any]) -> str:
        """One row as the prompt shows it."""
        return "|".join(_cell(value) for value in (number, *cells))

    def add(self, row: Row, cells: Callable[[Row], Sequence[Any]]) -> bool:
        """Append a row numbered from 1; False (and nothing added) once over budget."""
        number = len(self.rows) + 1
        line = self.line(number, cells(row))
        cost = count_tokens(line) + 1
        if self.used_tokens + cost > self.budget_tokens:
            return False
        self.lines.append(line)
        self.used_tokens += cost
        self.rows.append({**row, "ref": number})
        return True

    def fill(self, rows: Sequence[Row], cells: Callable[[Row], Sequence[Any]]) -> int:
        """Add rows in order until one does not fit; return the tokens left unused."""
        for row in rows:
            if not self.add(row, cells):
                break
        return max(0, self.budget_tokens - self.used_tokens)

    def render(self) -> str:
        """The table text, or nothing when it holds no rows."""
        return "\n".join(self.lines) if self.rows else ""


def join_tables(tables: Sequence[TableBuilder]) -> str:
    """The prompt's data section: every non-empty table, blank-line separated."""
    return "\n\n".join(t.render() for t in tables if t.rows)


def history_block(history: Sequence[tuple[str, str]] | None) -> str:
    """Earlier turns of the conversation for the prompt, or nothing."""
    if not history:
        return ""
    turns = "\n".join(f"{role}: {text}" for role, text in history)
    return f"\n-----Conversation so far-----\n{turns}\n"


def recent_turns(history: Sequence[tuple[str, str]], budget_tokens: int) -> list[tuple[str, str]]:
    """The latest turns that fit the budget, oldest first; the newest is cut if it alone is over.

    Older turns go first because a follow-up question leans on what was said just before it.
    """
    kept: list[tuple[str, str]] = []
    used = 0
    for role, text in reversed(history):
        cost = count_tokens(f"{role}: {text}") + 1
        if used + cost > budget_tokens:
            if not kept and budget_tokens > 0:
                encoding = get_encoding()
                kept.append((role, encoding.decode(encoding.encode_ordinary(text)[:budget_tokens])))
            break
        kept.append((role, text))
        used += cost
    return kept[::-1]
