"""Counts made per partition and merged are the counts of the whole input, whatever the cut."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

import pytest

from graphrag_neo4j.indexing.cluster.partial_counts import merged
from graphrag_neo4j.indexing.extraction.fast.decisions import Decisions, EdgeWeights, TermCounts
from graphrag_neo4j.indexing.extraction.fast.terms import ChunkTerms, Term
from graphrag_neo4j.settings import FastExtractionSettings

SETTINGS = FastExtractionSettings(min_concept_frequency=1)
WORDS = [("scrooge", "Scrooge", "PERSON", False), ("lantern", "lantern", "concept", True),
         ("marley", "Marley", "PERSON", False), ("london", "London", "GPE", False),
         ("bell", "bell", "concept", True)]


def _chunks() -> list[tuple[ChunkTerms, str]]:
    """Twelve chunks of two sentences naming overlapping terms, in four documents."""
    chunks = []
    for number in range(12):
        terms = [Term(key, name, kind, sentence, concept, 1 if sentence == 0 else -1,
                      sentence == 0 and index % 2 == 0)
                 for sentence in (0, 1)
                 for index, (key, name, kind, concept) in enumerate(WORDS)
                 if (number + index + sentence) % 3 != 0]
        chunk = ChunkTerms(f"c{number}", ["First one.", "Second one."], terms, {1: "carry"})
        chunks.append((chunk, f"d{number // 3}"))
    return chunks


def _counted(chunks: list[tuple[ChunkTerms, str]]) -> TermCounts:
    counts = TermCounts()
    for chunk, _ in chunks:
        counts.add(chunk)
    return counts


def _weighed(chunks: list[tuple[ChunkTerms, str]], kept: set[str]) -> EdgeWeights:
    weights = EdgeWeights(kept, SETTINGS)
    for chunk, document in chunks:
        weights.add(chunk, document)
    return weights


@pytest.mark.parametrize("cuts", [(6,), (1, 5, 11), (3, 4, 5, 6, 7)])
def test_partitions_merged_decide_as_the_whole_input(cuts: tuple[int, ...]) -> None:
    chunks = _chunks()
    bounds = [0, *cuts, len(chunks)]
    parts = [chunks[start:end] for start, end in itertools.pairwise(bounds)]
    whole_counts = _counted(chunks)
    counts = merged((_counted(part) for part in parts), TermCounts())
    assert counts == whole_counts
    kept = whole_counts.frequent(SETTINGS)
    whole = _weighed(chunks, kept)
    weights = merged((_weighed(part, kept) for part in parts), EdgeWeights(kept, SETTINGS))
    assert weights.strong() == whole.strong() and weights.strong()
    assert weights.by_chunk == whole.by_chunk
    assert Decisions.made(counts, weights) == Decisions.made(whole_counts, whole)


@dataclass
class _NewCounts:
    """Counts a method may add later: merged by their kinds, no merge code of their own."""

    seen: int = 0
    words: Counter[str] = field(default_factory=Counter)
    by_name: dict[str, set[str]] = field(default_factory=dict)
    mode: str = "fast"


def test_a_new_kind_of_count_merges_by_its_fields_and_shared_values_must_agree() -> None:
    parts = [_NewCounts(1, Counter(a=1), {"x": {"1"}}), _NewCounts(2, Counter(a=2, b=1),
                                                                  {"x": {"2"}, "y": {"3"}})]
    assert merged(parts, _NewCounts()) == _NewCounts(
        3, Counter(a=3, b=1), {"x": {"1", "2"}, "y": {"3"}})
    with pytest.raises(ValueError, match="mode"):
        merged([_NewCounts(mode="llm")], _NewCounts())
