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
        # Merged partial sums not yet summed in, in the order they came (after `_pending`).
        self._parked: list[_Summed] = []
        self._parked_rows = 0
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
        the partial sums of a partitioned run. They are parked and summed in once the parked
        rows reach the rows held, so merging P parts sorts the total O(log P) times, not P."""
        if other._keys != self._keys:
            raise ValueError("statement sums over different keys cannot be merged")
        other._flush()
        ids = np.asarray([self._predicate_id(p) for p in other._predicates], dtype=np.int64)
        pairs, predicates, weights = other._summed
        self._park(self._pending_arrays())
        self._park((pairs, ids[predicates] if len(ids) else predicates, weights))
        if self._parked_rows >= max(FLUSH_EVERY, len(self._summed[0])):
            self._flush()

    def _pending_arrays(self) -> _Summed:
        """The statements added and not yet summed, as arrays (emptied)."""
        pairs, predicates, weights = self._pending
        self._pending = (array("q"), array("q"), array("d"))
        return (np.frombuffer(pairs, dtype=np.int64), np.frombuffer(predicates, dtype=np.int64),
                np.frombuffer(weights, dtype=np.float64))

    def _park(self, summed: _Summed) -> None:
        if len(summed[0]):
            self._parked.append(summed)
            self._parked_rows += len(summed[0])

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
        """Sum the pending (and parked) statements into the arrays, one entry per distinct
        statement, in the order they were added."""
        self._park(self._pending_arrays())
        if not self._parked:
            return
        parts = [self._summed, *self._parked]
        self._parked, self._parked_rows = [], 0
        pairs = np.concatenate([part[0] for part in parts])
        predicates = np.concatenate([part[1] for part in parts])
        weights = np.concatenate([part[2] for part in parts])
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

