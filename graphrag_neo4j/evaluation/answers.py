"""`eval answers`: every method answers every question under one context budget; EM, F1,
each wrong answer split into a retrieval miss (gold passages not in the context) or a
reasoning miss (they were, and the answer is still wrong), and the answers flagged as misfits."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from graphrag_neo4j.evaluation.retrieval import EvalQuestion
from graphrag_neo4j.evaluation.scores import answer_text, best_scores, is_right
from graphrag_neo4j.llm.tokens.counting import count_tokens
from graphrag_neo4j.query.answers.shape import misfit
from graphrag_neo4j.query.base import Answer
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import SearchSettings, context_budgets

Ask = Callable[[EvalQuestion], Awaitable[Answer]]
Record = dict[str, Any]

# The settings holding each method's answer-context budget (intermediate prompts included:
# DRIFT's primer and follow-ups, global search's map batches), set to one figure in an eval.
BUDGET_SETTINGS = tuple(context_budgets(SearchSettings, "answer"))


def budget_overrides(tokens: int) -> dict[str, int]:
    """Every method's context budget set to `tokens`, so methods compare on equal terms."""
    if tokens < 100:
        raise InputError(f"The context budget must be at least 100 tokens, not {tokens}.")
    return dict.fromkeys(BUDGET_SETTINGS, tokens)


def context_documents(answer: Answer) -> list[str]:
    """Document ids of the rows the answer prompt showed, in table order, each once."""
    ids = (str(row["document_id"]) for rows in answer.sources.values() for row in rows
           if isinstance(row, dict) and row.get("document_id") is not None)
    return list(dict.fromkeys(ids))


def miss_kind(right: bool, gold_in_context: bool | None) -> str:
    """"" for a right answer; "retrieval" when a gold passage was missing from the context;
    "reasoning" when every gold passage was there and the answer is still wrong."""
    if right:
        return ""
    return "reasoning" if gold_in_context else "retrieval"


def score_answer(item: EvalQuestion, answer: Answer, seconds: float) -> Record:
    """One JSONL record: the answer, its scores, the miss split, grounding and what it cost."""
    shown = context_documents(answer)
    gold_in = set(item.gold) <= set(shown) if item.gold else None
    em, f1 = best_scores(answer.text, item.answers)
    return judged({
        "id": item.id, "question": item.question, "gold_answers": list(item.answers),
        "answer": answer_text(answer.text), "em": em, "f1": round(f1, 4), "right": None,
        "gold_passages": item.gold, "context_documents": shown, "gold_in_context": gold_in,
        "miss": None,
        "unsupported_entities": list(answer.unsupported_entities),
        "grounding": answer.grounding,
        "context_tokens": count_tokens(answer.context), "llm_calls": answer.llm_calls,
        "prompt_tokens": answer.prompt_tokens, "completion_tokens": answer.completion_tokens,
        "seconds": round(seconds, 3), "notes": answer.note_texts(),
    })


def read_done(path: Path | None, run_key: str) -> dict[tuple[str, str], Record]:
    """Records of an earlier run with the same settings, by (method, question id): resuming
    reuses them instead of asking again. A line that is not a record is skipped."""
    done: dict[tuple[str, str], Record] = {}
    if path is None or not path.is_file():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short when an earlier run was killed
        if isinstance(record, dict) and record.get("run") == run_key:
            done[(str(record.get("method")), str(record.get("id")))] = judged(record)
    return done


def judged(record: Record) -> Record:
    """The record with its answer checked against its question (`misfit`) and judged right or
    wrong with its miss kind, by the current rules: a new record's, and a reused one's instead
    of the rules it was written with; a question without gold answers is not judged."""
    answer = str(record.get("answer", ""))
    record = {**record, "misfit": misfit(answer, str(record.get("question", ""))) or ""}
    golds = record.get("gold_answers") or []
    if not golds:
        return record
    right = is_right(answer, golds)
    return {**record, "right": right, "miss": miss_kind(right, record.get("gold_in_context"))}


def reports_written_note(before: int, after: int) -> str | None:
    """What to say when the run wrote community reports (DRIFT's primer, global's lazy
    reports): local search reads them, so its answers depend on the graph a run starts on."""
    if after <= before:
        return None
    return (f"This run wrote {after - before} community reports ({before} before it, {after}"
            " now). Local search reads them, so local's answers in a later run may differ from"
            " this run's: compare methods on runs that start from the same graph.")


def run_key(overrides: dict[str, Any]) -> str:
    """What makes two runs' answers comparable: their settings overrides, order-free."""
    return json.dumps(overrides, sort_keys=True, default=str)


@dataclass
class AnswerSummary:
    """One method's figures over the questions it answered."""

    method: str
    records: list[Record] = field(default_factory=list)
    unavailable: str | None = None

    def _mean(self, key: str) -> float:
        values = [float(r[key]) for r in self.records if r.get(key) is not None]
        return statistics.fmean(values) if values else 0.0

    @property
    def scored(self) -> list[Record]:
        """Records of questions that have a gold answer."""
        return [r for r in self.records if r.get("right") is not None]

    def percent(self, key: str) -> float:
        """Mean EM or F1 in percent over the scored questions."""
        values = [float(r[key]) for r in self.scored]
        return 100.0 * statistics.fmean(values) if values else 0.0

    def misses(self, kind: str) -> int:
        """Wrong answers of one kind: "retrieval" or "reasoning"."""
        return sum(1 for r in self.scored if r.get("miss") == kind)

    def unsupported_share(self, after_grounding: bool = False) -> float:
        """Percent of answers whose model text named an entity found nowhere in its context;
        `after_grounding`: still naming one once grounding ran (`drop` removes them)."""
        flagged = sum(1 for r in self.records if r.get("unsupported_entities")
                      and not (after_grounding and r.get("grounding") == "drop"))
        return 100.0 * flagged / len(self.records) if self.records else 0.0

    def misfits(self) -> tuple[int, int]:
        """Answers the answer check flagged as not answering their question, and how many of
        those were right after all (a check that flags right answers misleads)."""
        flagged = [r for r in self.records if r.get("misfit")]
        return len(flagged), sum(1 for r in flagged if r.get("right"))

    @property
    def grounding_modes(self) -> set[str]:
        """The grounding modes the records were answered with ("" = not checked)."""
        return {str(r.get("grounding") or "") for r in self.records}

    def mean(self, key: str) -> float:
        """Mean of a numeric record field (tokens, seconds)."""
        return self._mean(key)


async def answer_questions(
    method: str,
    ask: Ask,
    questions: Sequence[EvalQuestion],
    done: dict[tuple[str, str], Record],
    sink: IO[str] | None = None,
    on_question: Callable[[], None] | None = None,
    key: str = "",
) -> AnswerSummary:
    """Ask each question not answered in `done`, score it, write its record; a method the
    graph cannot run (an InputError on the first question) is reported unavailable."""
    summary = AnswerSummary(method)
    for item in questions:
        record = done.get((method, item.id))
        if record is None:
            started = time.perf_counter()
            try:
                answer = await ask(item)
            except InputError as exc:
                if summary.records:
                    raise
                summary.unavailable = str(exc).rstrip(".")
                return summary
            record = {"method": method, "run": key,
                      **score_answer(item, answer, time.perf_counter() - started)}
            _write(sink, record)
        summary.records.append(record)
        if on_question is not None:
            on_question()
    return summary


def _write(sink: IO[str] | None, record: Record) -> None:
    if sink is not None:
        sink.write(json.dumps(record, ensure_ascii=False) + "\n")
        sink.flush()


def right_from_gold(summary: AnswerSummary, gold: AnswerSummary) -> int:
    """How many of the method's reasoning misses the answer model gets right from the gold
    passages alone: the others it misses with no other passage in the way, a limit of the
    model rather than of the method's context."""
    right = {str(r["id"]) for r in gold.scored if r["right"]}
    return sum(1 for r in summary.scored if r.get("miss") == "reasoning" and str(r["id"]) in right)


def answers_by_question(summary: AnswerSummary) -> dict[str, str]:
    """Question id -> answer text, for the judge."""
    return {str(r["id"]): str(r["answer"]) for r in summary.records}


def pairs(methods: Iterable[str]) -> list[tuple[str, str]]:
    """Every unordered pair of methods, in the order given."""
    names = list(methods)
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
