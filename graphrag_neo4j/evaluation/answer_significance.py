"""Whether two methods' answers to the same questions differ by more than chance: a paired
bootstrap interval of the F1 difference and McNemar's exact test on right answers."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import binomtest, bootstrap  # type: ignore[import-untyped]

from graphrag_neo4j.evaluation.answers import AnswerSummary

CONFIDENCE = 0.95
RESAMPLES = 9999
# A fixed seed: the same records always print the same interval.
SEED = 0


@dataclass(frozen=True)
class PairedComparison:
    """A method against a baseline on the questions both answered (F1 in points)."""

    method: str
    baseline: str
    questions: int
    f1_difference: float
    low: float
    high: float
    gained: int  # right here, wrong in the baseline
    lost: int  # wrong here, right in the baseline
    p_value: float

    @property
    def differs(self) -> bool:
        """Whether the interval of the F1 difference leaves out zero."""
        return self.low > 0 or self.high < 0


def compare(summary: AnswerSummary, baseline: AnswerSummary) -> PairedComparison | None:
    """The method against the baseline, question by question; None without shared questions."""
    theirs = {str(r["id"]): r for r in baseline.scored}
    pairs = [(r, theirs[str(r["id"])]) for r in summary.scored if str(r["id"]) in theirs]
    if not pairs:
        return None
    differences = np.array([100.0 * (float(a["f1"]) - float(b["f1"])) for a, b in pairs])
    low, high = paired_interval(differences)
    gained = sum(1 for a, b in pairs if a["right"] and not b["right"])
    lost = sum(1 for a, b in pairs if b["right"] and not a["right"])
    return PairedComparison(summary.method, baseline.method, len(pairs),
                            float(differences.mean()), low, high, gained, lost,
                            mcnemar_p(gained, lost))


def mcnemar_p(gained: int, lost: int) -> float:
    """McNemar's exact test: only the questions where the two disagree carry information."""
    return float(binomtest(gained, gained + lost, 0.5).pvalue) if gained + lost else 1.0


def paired_interval(differences: np.ndarray) -> tuple[float, float]:
    """The bootstrap interval of the mean of paired differences (a point when every
    difference is one)."""
    if np.ptp(differences) == 0:
        return float(differences[0]), float(differences[0])
    result = bootstrap((differences,), np.mean, n_resamples=RESAMPLES,
                       confidence_level=CONFIDENCE, method="percentile",
                       rng=np.random.default_rng(SEED))
    interval = result.confidence_interval
    return float(interval.low), float(interval.high)
