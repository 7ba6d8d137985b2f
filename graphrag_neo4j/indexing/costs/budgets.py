"""The indexer's side of --max-cost / --max-llm-calls: stop before a batch, say what is left."""

from __future__ import annotations

from graphrag_neo4j.indexing.extraction.base import ExtractionMethod
from graphrag_neo4j.indexing.records import Chunk
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.costs.budget import BudgetExceededError
from graphrag_neo4j.llm.costs.profile import ModelProfile


def project_batch(method: ExtractionMethod, chunks: list[Chunk], profile: ModelProfile
                  ) -> tuple[float, float]:
    """The fewest LLM calls and least cost extracting these chunks can take."""
    rows = method.estimate(chunks, profile)
    calls = sum(row.calls.low for row in rows)
    cost = sum(row.cost.low for row in rows if row.cost is not None)
    return calls, cost


def guard_batch(method: ExtractionMethod, llm: LLMCaller | None, chunks: list[Chunk],
                number: int) -> None:
    """Raise before extracting a batch whose least calls or cost would pass the run's limits."""
    if llm is None or llm.budget is None or not method.needs_llm:
        return
    calls, cost = project_batch(method, chunks, ModelProfile.of(llm, None))
    llm.budget.before_batch(f"batch {number} ({len(chunks):,} chunks)", calls, cost)


def stopped(exc: BudgetExceededError, done: int, left: int,
            remaining: int) -> BudgetExceededError:
    """The budget error with what the run kept and what a re-run would still do: `left`
    documents not complete, `remaining` chunks not written."""
    return BudgetExceededError(
        f"{exc} {done:,} documents were indexed completely; {left:,} documents "
        f"({remaining:,} chunks) are left. Every complete batch is kept (one stopped inside is"
        " rolled back): run the same command again (with a higher limit) to resume; cached"
        " replies cost nothing."
    )
