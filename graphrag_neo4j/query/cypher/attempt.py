"""One generated query's way through the guard and the server: refused, failed, or its rows."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from neo4j.exceptions import Neo4jError

from graphrag_neo4j.query.context import Row
from graphrag_neo4j.query.cypher.bounded_read import (
    over_budget,
    read_bounded,
    server_failure,
)
from graphrag_neo4j.query.cypher.guard import PlanReader, Refusal, check_plan
from graphrag_neo4j.query.cypher.names import UnknownName, describe, unknown_names
from graphrag_neo4j.query.cypher.schema import HIDDEN_PROPERTIES
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import CypherSearchSettings

MAX_CELL_CHARS = 300  # a passage returned whole is cut for the answer prompt


@runtime_checkable
class GeneratedCypherReader(PlanReader, Protocol):
    """What the method needs of `Store` beyond named reads: model-written Cypher, guarded
    (the guard's part), in its workspace."""

    def read_generated(
        self, text: str, timeout_s: float, max_rows: int, tag: str = ""
    ) -> list[Row]:
        """The rows of a guarded statement, read-only, time- and row-bound, tagged."""
        ...

    def terminate_generated(self, tag: str) -> int:
        """End the tagged statement's transaction."""
        ...


def generated_reader(store: object) -> GeneratedCypherReader:
    """The store as a runner of generated Cypher, or one sentence saying it is none."""
    if not isinstance(store, GeneratedCypherReader):
        raise InputError(
            f"The cypher method needs a Neo4j store that can EXPLAIN and run generated queries;"
            f" {type(store).__name__} cannot: use the engine's store."
        )
    return store


@dataclass
class Attempt:
    """What happened to one query: `status` is ran, refused, failed or unknown (it names what
    the graph does not have, in `unknown`, so it was not run); `reason` says why not."""

    query: str
    status: str = "ran"
    reason: str = ""
    rows: list[Row] = field(default_factory=list)
    unknown: list[UnknownName] = field(default_factory=list)
    # How it was made from the query before it with no LLM call ("" when the model wrote it).
    rewrite: str = ""
    # It found only numbers for a question that asks which thing or who.
    nameless: bool = False
    # A repair that wrote the query before it again: that query's fate, taken without a run.
    repeated: bool = False

    @property
    def found_nothing(self) -> bool:
        """It ran and found no rows, or only zeros and empties: a count of 0 is usually a name
        spelled otherwise ({name: "Scrooge"} where the graph says "Ebenezer Scrooge")."""
        return self.status == "ran" and all(
            value in (0, None, "", []) for row in self.rows for value in row.values())

    @property
    def counts_each_once(self) -> bool:
        """It ran, counted, and a column is 1 on every one of several rows: a count grouped by
        the very thing it counts (`RETURN o.name, count(*) AS relations`), which ranks nothing."""
        if self.status != "ran" or len(self.rows) < 2 or "count(" not in self.query.lower():
            return False
        return any(all(_is_one(row.get(key)) for row in self.rows) for key in self.rows[0])

    @property
    def numbers_only(self) -> bool:
        """It ran, found something, and every value it returned is a number: no name among
        its rows (`RETURN count(o)` for "which organization has the most relations?")."""
        return self.answers and all(
            isinstance(value, int | float) and not isinstance(value, bool)
            for row in self.rows for value in row.values())

    @property
    def answers(self) -> bool:
        """It ran and found something other than zeros and empty values."""
        return self.status == "ran" and bool(self.rows) and not self.found_nothing

    def fate(self) -> Row:
        """The query, what became of it and why."""
        return {"query": self.query, "status": self.status, "reason": self.reason}


def attempts_record(attempts: Sequence[Attempt], answering: Attempt) -> Row:
    """The answering query and its fate, with every attempt's, for the answer's sources and
    `--show-cypher`."""
    return {**answering.fate(), "rows": len(answering.rows), "repaired": len(attempts) > 1,
            "attempts": [attempt.fate() for attempt in attempts]}


async def attempt_query(
    store: GeneratedCypherReader, text: str, settings: CypherSearchSettings
) -> Attempt:
    """Guard the query (EXPLAIN), then run it read-only; a refusal, an error or a name the
    graph does not have is recorded instead."""
    try:
        checked = await asyncio.to_thread(check_plan, store, text, settings.allowed_procedures)
        if isinstance(checked, Refusal):
            return Attempt(text, "refused", checked.reason)
        unknown = unknown_names(checked.notices) if settings.check_names else []
        if unknown:
            return Attempt(checked.statement, "unknown", "it names what the graph does not"
                           f" have: {describe(unknown)}", unknown=unknown)
        rows = await read_bounded(store, checked.statement, settings)
    except Neo4jError as exc:
        message = _first_line(exc.message or str(exc))
        reason = (over_budget(exc.code, settings) or server_failure(exc.code, message)
                  or message)
        return Attempt(text, "failed", reason)
    return Attempt(checked.statement, rows=[clean_row(row) for row in rows])


def clean_row(row: Row) -> Row:
    """A result row fit for a prompt: no vectors or bookkeeping, long text cut."""
    return {key: _clean(value) for key, value in row.items() if key not in HIDDEN_PROPERTIES}


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return clean_row(value)
    if isinstance(value, list):
        return [_clean(item) for item in value]
    if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
        return value[:MAX_CELL_CHARS] + "..."
    return value


def _is_one(value: Any) -> bool:
    return value == 1 and not isinstance(value, bool)


def _first_line(message: str) -> str:
    return message.strip().splitlines()[0] if message.strip() else "the server refused it"
