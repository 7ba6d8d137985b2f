"""The one ordered list of Cypher rewrites: every query written runs through it, then repairs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from graphrag_neo4j.query.cypher.rewrites.direction import Direction
from graphrag_neo4j.query.cypher.rewrites.entity_names import EntityNames
from graphrag_neo4j.query.cypher.rewrites.kept_counts import KeptCounts
from graphrag_neo4j.query.cypher.rewrites.known_names import KnownNames
from graphrag_neo4j.query.cypher.rewrites.rewrite import Rewrite, Situation, When

# In the order they run. Those tried on every written query come first; each repair gets the
# query the one before it made (or the first query), and its result is rewritten as written.
# Each kept changed an answer from wrong to right on questions it was not written for
# (benchmarks/query/cypher_rewrites.py); five that changed none there were dropped (slips,
# distinct_order, named_variables, partial_names, spelling).
REWRITES: tuple[Rewrite, ...] = (
    KeptCounts(),
    Direction(),
    KnownNames(),
    EntityNames(),
)


def without(names: Iterable[str], rewrites: Sequence[Rewrite] = REWRITES) -> tuple[Rewrite, ...]:
    """The list without the named rewrites (one sentence naming the known ones on a typo)."""
    left_out = set(names)
    unknown = left_out - {rewrite.name for rewrite in rewrites}
    if unknown:
        raise ValueError(f"No Cypher rewrite is called {', '.join(sorted(unknown))}; the"
                         f" rewrites are {', '.join(rewrite.name for rewrite in rewrites)}.")
    return tuple(rewrite for rewrite in rewrites if rewrite.name not in left_out)


async def as_written(query: str, situation: Situation, rewrites: Sequence[Rewrite]) -> str:
    """The query as it will run: each rewrite of written queries applied in turn."""
    for rewrite in rewrites:
        if rewrite.when is When.WRITTEN:
            query = await rewrite.rewrite(query, situation) or query
    return query


def repairs(rewrites: Sequence[Rewrite]) -> list[Rewrite]:
    """The rewrites tried on a query that ran and did not answer, in order."""
    return [rewrite for rewrite in rewrites if rewrite.when is not When.WRITTEN]


def rewrites_table(rewrites: Sequence[Rewrite] = REWRITES) -> str:
    """The list as a Markdown table, in order: what docs/query-methods.md shows."""
    rows = [f"| `{rewrite.name}` | {rewrite.when.value} | {rewrite.note} |"
            for rewrite in rewrites]
    return "\n".join(["| rewrite | tried on | what it does |", "|---|---|---|", *rows])

