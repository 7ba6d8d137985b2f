"""`graphrag-neo4j eval answers`: answer quality per method under one context budget
(EM, F1, retrieval vs reasoning misses, unsupported names, misfits), optionally judged pairwise."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from graphrag_neo4j.cli.options.search_set import SetOption, search_settings_set, settings_with
from graphrag_neo4j.cli.options.workspace_option import WorkspaceOption, use_workspace
from graphrag_neo4j.evaluation.answer_run import (
    against_baseline,
    answer_all,
    judge_all,
    require_gold,
)
from graphrag_neo4j.evaluation.answers import (
    AnswerSummary,
    budget_overrides,
    read_done,
    reports_written_note,
    right_from_gold,
    run_key,
)
from graphrag_neo4j.evaluation.corpus import prepare_graph
from graphrag_neo4j.evaluation.gold_ids import questions_in_graph
from graphrag_neo4j.evaluation.gold_passages import GOLD
from graphrag_neo4j.evaluation.judge import CRITERIA, PairResult
from graphrag_neo4j.evaluation.retrieval import read_questions
from graphrag_neo4j.query.base import with_search_settings
from graphrag_neo4j.query.registry import ANSWER_EVAL_METHODS, listed_methods, method_list

if TYPE_CHECKING:
    from graphrag_neo4j.evaluation.answer_significance import PairedComparison

console = Console(stderr=True)
out = Console()


def answers_command(
    questions: Annotated[
        Path, typer.Option(help="JSON list of {question, answer, answer_aliases, "
                           "supporting_passage_ids} (answers and passages may be absent).")
    ],
    corpus: Annotated[
        Path | None,
        typer.Option(help="Triplet corpus (indexed first; no-op if done). Without it the graph "
                     "is evaluated as it is."),
    ] = None,
    method: Annotated[
        str, typer.Option(help=f"Comma-separated, of: {method_list()}.")
    ] = ",".join(ANSWER_EVAL_METHODS),
    context_tokens: Annotated[
        int | None,
        typer.Option(help="The context token budget of every method (default: "
                     "eval.context_tokens)."),
    ] = None,
    per_question: Annotated[
        Path | None,
        typer.Option(help="JSONL of one record per method and question; records of an earlier "
                     "run with the same settings are reused (resume)."),
    ] = None,
    limit: Annotated[int | None, typer.Option(help="Only the first N questions.")] = None,
    judge: Annotated[
        bool, typer.Option(help="Judge every pair of methods with the LLM (eval.judge_model) on "
                           "comprehensiveness, diversity, empowerment, directness; both orders.")
    ] = False,
    gold_context: Annotated[
        bool, typer.Option(help="Also answer each question from its gold passages alone (the "
                           "'gold' column: the answer model's ceiling), and count each method's "
                           "reasoning misses it answers right.")
    ] = False,
    settings: SetOption = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Answer every question with every method, score EM/F1, split misses, print the table."""
    use_workspace(workspace)
    from graphrag_neo4j.engine import GraphRAG

    methods = listed_methods(method)
    items = read_questions(questions, limit, need_passages=False)
    if gold_context:
        require_gold(items, questions)
    base = settings_with(search_settings_set(settings))
    budget = context_tokens or base.eval.context_tokens
    budgets = budget_overrides(budget)
    # The budgets are this run's settings, not per-query options: a query may only lower those.
    with GraphRAG(with_search_settings(base, budgets), console=console) as rag, \
            ExitStack() as stack:
        prepare_graph(rag, corpus, console, count_reports=True)
        items = questions_in_graph(rag.store, items, questions, console, refuse=False)
        options: dict[str, Any] = search_settings_set(settings)
        if any(item.answers for item in items):
            options["response_type"] = rag.settings.eval.response_type
        console.print(f"Context budget: {budget} tokens for every method"
                      f" ({', '.join(sorted(budgets))}).")
        key = run_key({**budgets, **options})
        done = read_done(per_question, key)
        if done:
            console.print(f"Resuming: {len(done)} answers reused from {per_question}.")
        sink = stack.enter_context(per_question.open("a", encoding="utf-8")) if per_question \
            else None
        reports_before = rag.written_reports()
        summaries = asyncio.run(
            answer_all(rag, methods, items, options, done, sink, key, gold_context, console)
        )
        out.print(answers_table(summaries, len(items), budget))
        if comparisons := against_baseline(summaries):
            out.print(significance_table(comparisons))
        if note := reports_written_note(reports_before, rag.written_reports()):
            console.print(note, style="yellow")
        if judge:
            judged = asyncio.run(judge_all(rag, summaries, items, console))
            out.print(judge_table(judged))


def _gold(cell: Callable[[AnswerSummary], str]) -> Callable[[AnswerSummary], str]:
    """A measure that needs gold answers: n/a for questions without them."""
    return lambda s: cell(s) if s.scored else "n/a"


def _grounded(cell: Callable[[AnswerSummary], str]) -> Callable[[AnswerSummary], str]:
    """A measure of grounding: off when the answers were not grounded."""
    return lambda s: cell(s) if s.grounding_modes != {""} else "off"


def _misfit_cell(summary: AnswerSummary) -> str:
    """Answers flagged as misfits and, with gold answers, how many of them were right."""
    flagged, right = summary.misfits()
    return f"{flagged} ({right})" if summary.scored else str(flagged)


# One row per measure and one column per method: a terminal 80 characters wide shows every
# measure of up to five methods (one column per measure truncated their names).
MEASURES: tuple[tuple[str, Callable[[AnswerSummary], str]], ...] = (
    ("EM", _gold(lambda s: f"{s.percent('em'):.1f}")),
    ("F1", _gold(lambda s: f"{s.percent('f1'):.1f}")),
    ("right", _gold(lambda s: str(sum(1 for r in s.scored if r["right"])))),
    ("retrieval miss", _gold(lambda s: str(s.misses("retrieval")))),
    ("reasoning miss", _gold(lambda s: str(s.misses("reasoning")))),
    ("unsupported %", _grounded(lambda s: f"{s.unsupported_share():.1f}")),
    ("after grounding %",
     _grounded(lambda s: f"{s.unsupported_share(after_grounding=True):.1f}")),
    ("misfit (right)", _misfit_cell),
    ("context tok", lambda s: f"{s.mean('context_tokens'):.0f}"),
    ("prompt tok", lambda s: f"{s.mean('prompt_tokens'):.0f}"),
    ("completion tok", lambda s: f"{s.mean('completion_tokens'):.0f}"),
    ("s/question", lambda s: f"{s.mean('seconds'):.1f}"),
)


# Below "reasoning miss" with a gold column: those of the misses the gold passages alone
# answer right (the rest the answer model misses even with nothing else in the way).
GOLD_RIGHT = "  right from gold"


def answers_table(summaries: list[AnswerSummary], n_questions: int, budget: int) -> Table:
    """One column per method, one row per measure: EM, F1, the miss split (with a gold
    column, how many reasoning misses it answers right), unsupported names, answers the
    answer check flagged (how many of them right) and tokens."""
    table = Table(title=f"Answers on {n_questions} questions (context budget {budget} tokens"
                  " for every method)")
    table.add_column("measure")
    for s in summaries:
        table.add_column(f"{s.method} (not available)" if s.unavailable else s.method,
                         justify="right")
    gold = next((s for s in summaries if s.method == GOLD and not s.unavailable), None)
    for measure, cell in MEASURES:
        table.add_row(measure, *["n/a" if s.unavailable else cell(s) for s in summaries])
        if measure == "reasoning miss" and gold is not None:
            table.add_row(GOLD_RIGHT, *["n/a" if s.unavailable or s is gold
                                        else str(right_from_gold(s, gold)) for s in summaries])
    return table


def significance_table(comparisons: list[PairedComparison]) -> Table:
    """Per method: the F1 difference to the baseline with its 95 % interval, the right
    answers gained and lost, McNemar's p, and whether the difference is beyond chance."""
    baseline = comparisons[0].baseline
    table = Table(title=f"Against {baseline} on the same questions (paired; F1 points with"
                  " a 95 % bootstrap interval)")
    table.add_column("method")
    # The interval whole: wrapped, "[+11.8, +34.8]" lost its end to the next line.
    table.add_column("F1 difference", justify="right", no_wrap=True)
    for column in ("right\ngained/lost", "McNemar p", "beyond\nchance"):
        table.add_column(column, justify="right")
    for c in comparisons:
        table.add_row(c.method, f"{c.f1_difference:+.1f} [{c.low:+.1f}, {c.high:+.1f}]",
                      f"+{c.gained} / -{c.lost}", f"{c.p_value:.3f}",
                      "yes" if c.differs else "no")
    return table


def judge_table(results: list[PairResult]) -> Table:
    """Per pair and criterion: the first method's win rate over both orders, and how often
    the two orders agreed (low agreement = a judge swayed by position)."""
    table = Table(title="Pairwise judge (each question asked in both orders)")
    table.add_column("first vs\nsecond", overflow="fold")
    # Criteria whole: squeezed, "comprehensiveness" became "comprehen…".
    table.add_column("criterion", no_wrap=True)
    for column in ("first\nwins %", "orders\nagree %", "questions", "unparsed\nverdicts"):
        table.add_column(column, justify="right")
    for result in results:
        for criterion in CRITERIA:
            agree = 100.0 * result.agreed[criterion] / max(result.questions, 1)
            table.add_row(f"{result.first} vs {result.second}", criterion,
                          f"{result.win_rate(criterion):.1f}", f"{agree:.0f}",
                          str(result.questions), str(result.unparsed))
    return table
