"""The indexer's side of --max-cost / --max-llm-calls: stop before a batch, say what is left."""

from __future__ import annotations

from graphrag_neo4j.indexing.costs.estimate import project_batch
from graphrag_neo4j.indexing.extraction.llm import Extractor
from graphrag_neo4j.indexing.records import Chunk, Document
from graphrag_neo4j.llm.costs.budget import BudgetExceededError
from graphrag_neo4j.llm.costs.profile import ModelProfile


def guard_batch(extractor: Extractor, chunks: list[Chunk], number: int) -> None:
    """Raise before extracting a batch whose least calls or cost would pass the run's limits."""
    budget = extractor.llm.budget
    if budget is None:
        return
    calls, cost = project_batch(chunks, extractor, ModelProfile.of(extractor.llm, None))
    budget.before_batch(f"batch {number} ({len(chunks):,} chunks)", calls, cost)


def stopped(exc: BudgetExceededError, done: int, left: list[Document],
            chunks: dict[str, list[Chunk]]) -> BudgetExceededError:
    """The budget error with what the run kept and what a re-run would still do."""
    remaining = sum(len(chunks[d.id]) for d in left)
    return BudgetExceededError(
        f"{exc} {done:,} documents were indexed completely; {len(left):,} documents "
        f"({remaining:,} chunks) are left. Everything written so far is kept: run the same "
        "command again (with a higher limit) to resume; cached replies cost nothing."
    )
