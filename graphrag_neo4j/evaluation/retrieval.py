"""Retrieval recall the way HippoRAG reports it: gold passages among the top k, per method."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol

from graphrag_neo4j.query.base import QueryMethod, Services, make_query
from graphrag_neo4j.runtime.errors import InputError

Ranker = Callable[[str, int], Awaitable[list[str]]]


class MethodSource(Services, Protocol):
    """Services that also keep the query methods they make, and close them (`GraphRAG`)."""

    def query_method(self, name: str | None = None) -> QueryMethod:
        """The method called `name`, made once and closed by its keeper."""
        ...


@dataclass(frozen=True)
class EvalQuestion:
    """A question with the ids of the passages (documents) that support its answer, and its
    gold answer with aliases when the set has them (`eval answers`)."""

    id: str
    question: str
    gold: list[str]
    answers: tuple[str, ...] = ()


@dataclass
class MethodResult:
    """One method's recall at each k, and how long retrieval took per question."""

    method: str
    ks: list[int]
    recall_sums: dict[int, float] = field(default_factory=dict)
    seconds: list[float] = field(default_factory=list)
    # Each question's Recall@k by question id, for paired comparisons between methods.
    per_question: dict[str, dict[int, float]] = field(default_factory=dict)
    unavailable: str | None = None

    def recall(self, k: int) -> float:
        """Mean Recall@k in percent over the questions run."""
        return 100.0 * self.recall_sums.get(k, 0.0) / max(len(self.seconds), 1)

    @property
    def mean_ms(self) -> float:
        """Mean retrieval time per question, in milliseconds."""
        return 1000.0 * statistics.fmean(self.seconds) if self.seconds else 0.0

    @property
    def median_ms(self) -> float:
        """Median retrieval time per question, in milliseconds."""
        return 1000.0 * statistics.median(self.seconds) if self.seconds else 0.0


def recall_at(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    """Share of the gold passages found among the first k retrieved (0 when there is no gold)."""
    wanted = set(gold)
    return len(wanted & set(ranked[:k])) / len(wanted) if wanted else 0.0


def read_questions(
    path: Path, limit: int | None = None, need_passages: bool = True
) -> list[EvalQuestion]:
    """Questions from a JSON list of {question, supporting_passage_ids[, id, answer,
    answer_aliases]} objects; without `need_passages` the passage ids may be absent (global
    questions for the judge)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"Cannot read questions from {path}: {exc}.") from exc
    if not isinstance(data, list):
        raise InputError(f"{path} must hold a JSON list of question objects.")
    questions = []
    for index, item in enumerate(data):
        gold = item.get("supporting_passage_ids") if isinstance(item, dict) else None
        if gold is None and not need_passages and isinstance(item, dict):
            gold = []
        if not isinstance(gold, list) or not str(item.get("question", "")).strip():
            raise InputError(
                f"{path} item {index} needs 'question' and a 'supporting_passage_ids' list."
            )
        questions.append(EvalQuestion(str(item.get("id", index)), item["question"],
                                      [str(g) for g in gold], _gold_answers(item)))
    return questions[:limit] if limit is not None else questions


def _gold_answers(item: dict[str, Any]) -> tuple[str, ...]:
    """The gold answer and its aliases, in that order, blanks left out."""
    aliases = item.get("answer_aliases") or []
    given = [item.get("answer"), *(aliases if isinstance(aliases, list) else [aliases])]
    return tuple(dict.fromkeys(str(a).strip() for a in given if a and str(a).strip()))


def ranker_for(services: MethodSource, name: str, overrides: dict[str, Any]) -> Ranker | str:
    """A function giving a method's top-k document ids, or why the method cannot rank them.

    The method is the one `services` keeps, so whoever closes `services` closes it too."""
    try:
        method = services.query_method(name)
    except InputError as exc:
        return str(exc).rstrip(".")
    if not method.ranks_documents:
        return f"{name} search ranks no passages"

    async def ranked(question: str, k: int) -> list[str]:
        query = make_query(services.settings, question, **overrides)
        return await method.rank_documents(query, k)

    return ranked


async def evaluate_method(
    method: str,
    ranker: Ranker,
    questions: Sequence[EvalQuestion],
    ks: Sequence[int],
    per_question: IO[str] | None = None,
    on_question: Callable[[], None] | None = None,
) -> MethodResult:
    """Run every question once at the largest k and score every k on that ranking."""
    result = MethodResult(method, sorted(ks))
    deepest = max(ks)
    for item in questions:
        started = time.perf_counter()
        ranked = await ranker(item.question, deepest)
        result.seconds.append(time.perf_counter() - started)
        recalls = {k: recall_at(ranked, item.gold, k) for k in result.ks}
        result.per_question[item.id] = recalls
        for k, value in recalls.items():
            result.recall_sums[k] = result.recall_sums.get(k, 0.0) + value
        if per_question is not None:
            row = {"method": method, "id": item.id, "question": item.question,
                   "gold": item.gold, "ranked": ranked,
                   **{f"recall@{k}": v for k, v in recalls.items()},
                   "seconds": round(result.seconds[-1], 4)}
            per_question.write(json.dumps(row, ensure_ascii=False) + "\n")
            per_question.flush()
        if on_question is not None:
            on_question()
    return result
