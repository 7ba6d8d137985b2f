"""Whether a method's recall differs from a baseline's on the same questions by more than
chance: the paired bootstrap interval and McNemar's test of `eval answers`, per Recall@k."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from graphrag_neo4j.evaluation.answer_significance import mcnemar_p, paired_interval
from graphrag_neo4j.evaluation.retrieval import MethodResult


@dataclass(frozen=True)
class RecallComparison:
    """A method against a baseline at one k, on the questions both ran (recall in points)."""

    method: str
    baseline: str
    k: int
    questions: int
    difference: float
    low: float
    high: float
    gained: int  # questions where the method finds more gold passages in its top k
    lost: int  # and fewer
    p_value: float

    @property
    def differs(self) -> bool:
        """Whether the interval of the difference leaves out zero."""
        return self.low > 0 or self.high < 0


def compare_recall(result: MethodResult, baseline: MethodResult, k: int) -> RecallComparison | None:
    """The method's Recall@k against the baseline's, question by question; None without
    shared questions."""
    theirs = baseline.per_question
    shared = [q for q in result.per_question if q in theirs]
    if not shared:
        return None
    differences = np.array(
        [100.0 * (result.per_question[q][k] - theirs[q][k]) for q in shared]
    )
    low, high = paired_interval(differences)
    gained = int((differences > 0).sum())
    lost = int((differences < 0).sum())
    return RecallComparison(result.method, baseline.method, k, len(shared),
                            float(differences.mean()), low, high, gained, lost,
                            mcnemar_p(gained, lost))


def against_baseline(
    results: list[MethodResult], baseline_name: str
) -> list[list[RecallComparison]]:
    """Per other method, its comparison at every k with the baseline (the method called
    `baseline_name` when it ran, else the first that ran)."""
    ran = [r for r in results if not r.unavailable and r.per_question]
    if len(ran) < 2:
        return []
    baseline = next((r for r in ran if r.method == baseline_name), ran[0])
    rows = []
    for result in ran:
        if result is baseline:
            continue
        found = [compare_recall(result, baseline, k) for k in result.ks]
        rows.append([c for c in found if c is not None])
    return [row for row in rows if row]
