"""Pairwise LLM judging of two methods' answers (Microsoft GraphRAG's four criteria), each
pair asked in both orders so the judge's preference for a position cancels out."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.runtime.resources import load_prompt

CRITERIA = ("comprehensiveness", "diversity", "empowerment", "directness")
Verdict = str | None  # "1", "2", "tie", or None when the reply names no choice


def parse_verdicts(reply: str) -> dict[str, Verdict]:
    """Each criterion's choice in the judge's reply; a criterion it skipped is None."""
    verdicts: dict[str, Verdict] = {}
    for criterion in CRITERIA:
        match = re.search(rf'"?{criterion}"?\s*:\s*"?(1|2|tie)\b', reply, re.IGNORECASE)
        verdicts[criterion] = match.group(1).lower() if match else None
    return verdicts


def points_for_first(verdict: Verdict, first_shown_first: bool) -> float | None:
    """Points of the pair's first method in one ordering: 1 a win, 0.5 a tie, 0 a loss;
    None when the judge gave no verdict."""
    if verdict is None:
        return None
    if verdict == "tie":
        return 0.5
    won_position = "1" if first_shown_first else "2"
    return 1.0 if verdict == won_position else 0.0


@dataclass
class PairResult:
    """One pair's points per criterion over both orders of every question."""

    first: str
    second: str
    points: dict[str, list[float]] = field(default_factory=lambda: {c: [] for c in CRITERIA})
    agreed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CRITERIA, 0))
    unparsed: int = 0
    questions: int = 0

    def win_rate(self, criterion: str) -> float:
        """Percent of the points the first method won on `criterion` (50 = even)."""
        values = self.points[criterion]
        return 100.0 * sum(values) / len(values) if values else 50.0

    def add(self, criterion: str, in_order: float | None, swapped: float | None) -> None:
        """The first method's points in both orders of one question."""
        given = [p for p in (in_order, swapped) if p is not None]
        self.unparsed += 2 - len(given)
        self.points[criterion].extend(given)
        if in_order is not None and in_order == swapped:
            self.agreed[criterion] += 1


async def judge_pair(
    llm: LLMCaller,
    first: str,
    second: str,
    questions: Sequence[tuple[str, str, str]],
    prompts_dir: Path | None = None,
    on_question: Callable[[], None] | None = None,
) -> PairResult:
    """Judge (question, first's answer, second's answer) triples in both orders."""
    template = load_prompt("evaluation/judge_pairwise", prompts_dir)
    result = PairResult(first, second)
    for question, answer_first, answer_second in questions:
        replies = []
        for one, two in ((answer_first, answer_second), (answer_second, answer_first)):
            prompt = template.format(question=question, answer_1=one, answer_2=two)
            replies.append(parse_verdicts(await llm.complete(prompt, stage="judge")))
        for criterion in CRITERIA:
            result.add(criterion, points_for_first(replies[0][criterion], True),
                       points_for_first(replies[1][criterion], False))
        result.questions += 1
        if on_question is not None:
            on_question()
    return result
