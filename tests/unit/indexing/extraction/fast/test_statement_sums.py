"""Statement sums as arrays: the sums a dict of triples gave, and far fewer bytes."""

from __future__ import annotations

import random
import tracemalloc
from collections import defaultdict
from typing import Any

import numpy as np
import pytest

from graphrag_neo4j.indexing.extraction.fast import statement_sums
from graphrag_neo4j.indexing.extraction.fast.statement_sums import Statement, StatementSums

KEYS = [f"key{number}" for number in range(60)]
PREDICATES = ["co-occurs with", "visit", "marry"]


def _statements(count: int, seed: int = 7) -> list[tuple[Statement, float]]:
    draw = random.Random(seed)
    return [((draw.choice(KEYS), draw.choice(PREDICATES), draw.choice(KEYS)),
             draw.choice([1.0, 0.25, 0.1])) for _ in range(count)]


def test_sums_match_a_dict_across_flushes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(statement_sums, "FLUSH_EVERY", 97)  # many flushes, uneven ones
    added = _statements(5000)
    reference: dict[Statement, float] = defaultdict(float)
    sums = StatementSums(KEYS)
    for statement, weight in added:
        reference[statement] += weight
        sums.add(statement, weight)
    assert len(sums) == len(reference)
    # Summed in the order added, bit for bit (0.1s included), so thresholds cut alike.
    assert sums.at_least(1.0) == {s: w for s, w in reference.items() if w >= 1.0}
    assert sums.at_least(0.0) == dict(reference)


def test_direction_and_predicate_tell_statements_apart() -> None:
    sums = StatementSums(["a", "b"])
    sums.add(("a", "visit", "b"), 1.0)
    sums.add(("b", "visit", "a"), 2.0)
    sums.add(("a", "marry", "b"), 3.0)
    sums.add(("a", "visit", "b"), 1.0)
    assert sums.at_least(0.0) == {("a", "visit", "b"): 2.0, ("b", "visit", "a"): 2.0,
                                  ("a", "marry", "b"): 3.0}
    assert StatementSums([]).at_least(0.0) == {}


def test_a_hundred_thousand_statements_hold_a_few_megabytes() -> None:
    keys = [f"term {number}" for number in range(1000)]
    sums = StatementSums(keys)
    tracemalloc.start()
    try:
        for number in range(100_000):
            sums.add((keys[number % 1000], "co-occurs with", keys[number // 1000]), 0.25)
        len(sums)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # 24 bytes a statement; a dict of string triples held ~170 (17 MB here).
    assert held < 4 * 2**20


def test_merging_many_parts_sums_as_merging_each_and_sorts_few_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(statement_sums, "FLUSH_EVERY", 50)
    parts = []
    for seed in range(64):  # a partitioned run's partial sums, in partition order
        part = StatementSums(KEYS)
        for statement, weight in _statements(40, seed):
            part.add(statement, weight)
        parts.append(part)
    reference: dict[Statement, float] = defaultdict(float)
    for part in parts:  # each part's sums added in partition order, as one merge at a time did
        for statement, weight in part.at_least(0.0).items():
            reference[statement] += weight
    sorts = 0
    lexsort = np.lexsort

    def counted(keys: Any) -> Any:
        nonlocal sorts
        sorts += 1
        return lexsort(keys)

    monkeypatch.setattr(np, "lexsort", counted)
    total = StatementSums(KEYS)
    for part in parts:
        total.merge(part)
    assert total.at_least(0.0) == dict(reference)
    # The total is sorted again only when the parked parts reach its size: the driver's merge
    # of P parts costs O(S log S), not P sorts of everything merged so far.
    assert sorts <= 8
