"""What a rewrite of model-written Cypher is: a name, a note, when it applies, the rewrite, and
what the repair prompt is told when it did not make the query answer."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Protocol

from graphrag_neo4j.query.base import GraphReader
from graphrag_neo4j.query.cypher.attempt import Attempt
from graphrag_neo4j.query.cypher.schema import GraphSchema


class When(Enum):
    """The queries a rewrite is tried on, each value saying so in words (for the docs)."""

    WRITTEN = "every query as it is written, before it runs"
    UNKNOWN = "a query that names what the graph does not have, in place of a repair call"
    FOUND_NOTHING = "a query that ran and found no rows or only zeros, in place of a repair call"

    def holds(self, attempt: Attempt | None) -> bool:
        """Whether a query with this fate (None: not run yet) is one this rewrite is for."""
        if self is When.WRITTEN:
            return attempt is None
        if attempt is None:
            return False
        return attempt.status == "unknown" if self is When.UNKNOWN else attempt.found_nothing


@dataclass(frozen=True)
class Situation:
    """What a rewrite may read besides the query: the question, the live schema, the store and
    the query's fate when it ran (None for a query just written)."""

    question: str
    schema: GraphSchema
    store: GraphReader
    attempt: Attempt | None = None


class Rewrite(Protocol):
    """One rewrite with no LLM call. `name` is its key (benchmarks and tests name it by it);
    `note` ends the answer's note "..., so {note}." when a repair it made answered (a rewrite
    of every written query is silent); `when` says which queries it is tried on; `problem`
    is what the LLM repair of such a query is told went wrong (a repair must say it; a rewrite
    of every written query, which no repair follows, says '')."""

    @property
    def name(self) -> str: ...

    @property
    def note(self) -> str: ...

    @property
    def when(self) -> When: ...

    async def rewrite(self, query: str, situation: Situation) -> str | None:
        """The rewritten query, or None (or the query itself) when it does not apply."""
        ...

    def problem(self, attempt: Attempt, schema: GraphSchema, prompts_dir: Path | None) -> str:
        """The repair prompt's sentence for a query this rewrite is for that still did not
        answer, with the prompts in `prompts_dir` (the packaged ones for None)."""
        ...


class NoRepair:
    """The `problem` of a rewrite of every written query: no repair follows it."""

    def problem(
        self, attempt: Attempt, schema: GraphSchema, prompts_dir: Path | None,  # noqa: ARG002
    ) -> str:
        """Nothing: no repair follows a rewrite of every written query."""
        return ""
