"""`eval answers` as a run: every method (and the gold passages' reader when asked) answers
every question, resuming from earlier records; the paired comparison; the pairwise judge."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import Progress
from rich.text import Text

from graphrag_neo4j.evaluation.answers import (
    AnswerSummary,
    Ask,
    Record,
    answer_questions,
    answers_by_question,
    pairs,
)
from graphrag_neo4j.evaluation.gold_passages import GOLD, GoldPassages
from graphrag_neo4j.evaluation.judge import PairResult, judge_pair
from graphrag_neo4j.evaluation.retrieval import EvalQuestion
from graphrag_neo4j.runtime.errors import InputError

if TYPE_CHECKING:
    from graphrag_neo4j.engine import GraphRAG
    from graphrag_neo4j.evaluation.answer_significance import PairedComparison
    from graphrag_neo4j.llm.calls.chat import LLMCaller


def require_gold(items: list[EvalQuestion], questions: Path) -> None:
    """Refuse a gold-passages run on questions without gold passages and answers."""
    if lacking := [i.id for i in items if not i.gold or not i.answers]:
        raise InputError(
            f"--gold-context needs gold passages and answers for every question; {questions}"
            f" lacks them for {len(lacking)} (first: {lacking[0]}): add them or leave it out."
        )


async def answer_all(
    rag: GraphRAG, methods: list[str], items: list[EvalQuestion], options: dict[str, Any],
    done: dict[tuple[str, str], Record], sink: IO[str] | None, key: str, gold: bool = False,
    console: Console | None = None,
) -> list[AnswerSummary]:
    """Each method's answers to every question scored, with a progress bar per method; a
    method the graph cannot run is said once and kept as unavailable."""
    console = console or Console(stderr=True)
    summaries = []
    with Progress(console=console, transient=True) as progress:
        for name, ask in askers(rag, methods, options, gold):
            if isinstance(ask, str):
                summary = AnswerSummary(name, unavailable=ask)
            else:
                task = progress.add_task(name, total=len(items))
                summary = await answer_questions(
                    name, ask, items, done, sink, partial(progress.advance, task), key
                )
            if summary.unavailable:
                console.print(Text.assemble((f"{name} is not available:", "yellow"),
                                            f" {summary.unavailable}."))
            summaries.append(summary)
    return summaries


def askers(
    rag: GraphRAG, methods: list[str], options: dict[str, Any], gold: bool
) -> list[tuple[str, Ask | str]]:
    """Each method's way to ask a question, or why the graph cannot run it; the gold
    passages' reader last when asked for."""
    found: list[tuple[str, Ask | str]] = []
    for name in methods:
        try:
            rag.query_method(name)
        except InputError as exc:
            found.append((name, str(exc).rstrip(".")))
            continue
        found.append((name, partial(_ask, rag, name, options)))
    if gold:
        found.append((GOLD, partial(_ask_gold, rag, options)))
    return found


async def _ask(rag: GraphRAG, name: str, options: dict[str, Any], item: EvalQuestion) -> Any:
    return await rag.aquery(item.question, name, **options)


async def _ask_gold(rag: GraphRAG, options: dict[str, Any], item: EvalQuestion) -> Any:
    return await rag.aquery(item.question, GoldPassages(rag, item.gold), **options)


def against_baseline(summaries: list[AnswerSummary]) -> list[PairedComparison]:
    """Every other method against the first one that was scored, question by question."""
    from graphrag_neo4j.evaluation.answer_significance import compare  # scipy.stats: 0.5 s

    scored = [s for s in summaries if not s.unavailable and s.scored]
    found = (compare(s, scored[0]) for s in scored[1:])
    return [c for c in found if c is not None]


def judge_llm(rag: GraphRAG, console: Console) -> LLMCaller:
    """The judge: eval.judge_model from the [llm] provider, or the engine's own LLM."""
    model = rag.settings.eval.judge_model
    if not model:
        return rag.llm
    from graphrag_neo4j.llm.calls.chat import LLMCaller
    from graphrag_neo4j.llm.providers import resolve_llm

    settings = rag.settings.model_copy(
        update={"llm": rag.settings.llm.model_copy(update={"model": model})}
    )
    resolved = resolve_llm(settings)
    console.print(f"Judge: {resolved.description}")
    return LLMCaller(resolved.source, settings.llm, settings.cache_dir)


async def judge_all(
    rag: GraphRAG, summaries: list[AnswerSummary], items: list[EvalQuestion], console: Console
) -> list[PairResult]:
    """Every pair of methods judged on the questions both answered, in both orders."""
    llm = judge_llm(rag, console)
    ran = {s.method: answers_by_question(s) for s in summaries if not s.unavailable}
    results = []
    with Progress(console=console, transient=True) as progress:
        for first, second in pairs(ran):
            triples = [(i.question, ran[first][i.id], ran[second][i.id]) for i in items
                       if i.id in ran[first] and i.id in ran[second]]
            task = progress.add_task(f"judge {first} vs {second}", total=len(triples))
            results.append(await judge_pair(llm, first, second, triples,
                                            rag.settings.prompts_dir,
                                            partial(progress.advance, task)))
    return results
