"""The weight of every statement summed over a whole input, held as numpy arrays of ids."""

from __future__ import annotations

from array import array
from collections.abc import Collection

import numpy as np
from numpy.typing import NDArray

Statement = tuple[str, str, str]  # (term key, predicate, term key)
# Statements added before their weights are summed into the arrays: 24 bytes each pending.
FLUSH_EVERY = 1 << 18
# Per distinct statement: its key pair's id, its predicate's id, its summed weight.
_Summed = tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]


class StatementSums:
    """Summed weights of (key, predicate, key) statements among known keys.

    A dict of string triples held ~170 bytes a statement: a 1 MB text has 1.5 million of them
    (every pair of terms sharing a chunk), 250 MB. Here a statement is two int64 ids (the key
    pair, the predicate) and a float64 sum, 24 bytes; only the strong ones become triples.

        sums = StatementSums({"euler", "basel"})
        sums.add(("basel", "co-occurs with", "euler"), 0.25)
        sums.at_least(1.0)   # {} until the statement's weights reach 1.0
    """

    def __init__(self, keys: Collection[str]) -> None:
        self._keys = sorted(keys)
        self._key_ids = {key: number for number, key in enumerate(self._keys)}
        self._predicates: list[str] = []
        self._predicate_ids: dict[str, int] = {}
        self._pending = (array("q"), array("q"), array("d"))
        self._summed: _Summed = (_ints(), _ints(), np.empty(0, dtype=np.float64))

    def add(self, statement: Statement, weight: float) -> None:
        """Add `weight` to the statement's sum (both its keys must be known)."""
        source, predicate, target = statement
        predicate_id = self._predicate_id(predicate)
        pairs, predicates, weights = self._pending
        pairs.append(self._key_ids[source] * len(self._keys) + self._key_ids[target])
        predicates.append(predicate_id)
        weights.append(weight)
        if len(pairs) >= FLUSH_EVERY:
            self._flush()

    def merge(self, other: StatementSums) -> None:
        """Add the sums of `other`, summed over later chunks of the same input (the same keys):
        the partial sums of a partitioned run."""
        if other._keys != self._keys:
            raise ValueError("statement sums over different keys cannot be merged")
        other._flush()
        ids = [self._predicate_id(predicate) for predicate in other._predicates]
        pairs, predicates, weights = other._summed
        held_pairs, held_predicates, held_weights = self._pending
        held_pairs.extend(pairs.tolist())
        held_predicates.extend(np.asarray(ids, dtype=np.int64)[predicates].tolist())
        held_weights.extend(weights.tolist())
        self._flush()

    def _predicate_id(self, predicate: str) -> int:
        predicate_id = self._predicate_ids.setdefault(predicate, len(self._predicates))
        if predicate_id == len(self._predicates):
            self._predicates.append(predicate)
        return predicate_id

    def __len__(self) -> int:
        self._flush()
        return len(self._summed[0])

    def at_least(self, minimum: float) -> dict[Statement, float]:
        """The statements whose summed weight reaches `minimum`, with their sums."""
        self._flush()
        pairs, predicates, sums = self._summed
        strong = np.flatnonzero(sums >= minimum)
        size = len(self._keys)
        return {
            (self._keys[pair // size], self._predicates[predicate], self._keys[pair % size]):
                float(total)
            for pair, predicate, total in zip(pairs[strong].tolist(),
                                              predicates[strong].tolist(),
                                              sums[strong].tolist(), strict=True)
        }

    def _flush(self) -> None:
        """Sum the pending statements into the arrays, one entry per distinct statement."""
        new_pairs, new_predicates, new_weights = self._pending
        if not new_pairs:
            return
        self._pending = (array("q"), array("q"), array("d"))
        held_pairs, held_predicates, held_sums = self._summed
        pairs = np.concatenate([held_pairs, np.frombuffer(new_pairs, dtype=np.int64)])
        predicates = np.concatenate([held_predicates,
                                     np.frombuffer(new_predicates, dtype=np.int64)])
        weights = np.concatenate([held_sums, np.frombuffer(new_weights, dtype=np.float64)])
        # Stable: each statement's weights stay in the order they were added.
        order = np.lexsort((predicates, pairs))
        pairs, predicates, weights = pairs[order], predicates[order], weights[order]
        new_statement = (pairs[1:] != pairs[:-1]) | (predicates[1:] != predicates[:-1])
        starts = np.concatenate(([True], new_statement))
        # bincount adds in input order, one weight after another, as a dict's += did (pairwise
        # summation could differ in the last bit and move a statement across min_edge_weight).
        totals = np.bincount(np.cumsum(starts) - 1, weights=weights).astype(np.float64)
        self._summed = (pairs[starts], predicates[starts], totals)


def _ints() -> NDArray[np.int64]:
    return np.empty(0, dtype=np.int64)

