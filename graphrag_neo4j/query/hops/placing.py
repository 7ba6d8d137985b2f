"""How an LLM round's passages join hops' ranking: the first ones never move, the round's
best new ones come next, then the rest, each passage once (the rerank and the follow-up alike)."""

from __future__ import annotations

from collections.abc import Sequence


def placed_passages(
    first: Sequence[str], second: Sequence[str], keep: int, insert: int
) -> list[str]:
    """The best `insert` of `second` not among `first`'s top `keep`: what a round places."""
    kept = set(first[:keep])
    return [chunk_id for chunk_id in second if chunk_id not in kept][:insert]


def joined_order(first: Sequence[str], second: Sequence[str], keep: int, insert: int) -> list[str]:
    """`first`'s top `keep`, then the passages a round places, then the rest of `first`,
    each passage once: the first passages never move, no passage drops out."""
    placed = placed_passages(first, second, keep, insert)
    return list(dict.fromkeys([*first[:keep], *placed, *first]))
