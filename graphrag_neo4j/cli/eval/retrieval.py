"""`graphrag-neo4j eval retrieval`: Recall@k of the methods that rank documents, on a QA set."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from graphrag_neo4j.cli.eval.answers import answers_command
from graphrag_neo4j.cli.options.search_set import SetOption, search_settings_set, settings_with
from graphrag_neo4j.cli.options.workspace_option import WorkspaceOption, use_workspace
from graphrag_neo4j.evaluation.corpus import prepare_graph
from graphrag_neo4j.evaluation.gold_ids import questions_in_graph
from graphrag_neo4j.evaluation.retrieval import MethodResult, read_questions
from graphrag_neo4j.evaluation.retrieval_run import against_baseline, evaluate_runs, variants
from graphrag_neo4j.query.registry import (
    EVAL_BASELINE,
    EVAL_METHODS,
    listed_methods,
    method_list,
)
from graphrag_neo4j.runtime.errors import InputError

if TYPE_CHECKING:
    from graphrag_neo4j.evaluation.retrieval_significance import RecallComparison

app = typer.Typer(
    no_args_is_help=True, help="Measure retrieval and answer quality on a question set."
)
console = Console(stderr=True)
out = Console()


def _int_list(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise InputError(f"--k takes comma-separated integers like 2,5, not {text!r}.") from exc
    if not values or min(values) < 1:
        raise InputError(f"--k takes positive integers like 2,5, not {text!r}.")
    return values


@app.command("retrieval")
def retrieval_command(
    questions: Annotated[
        Path, typer.Option(help="JSON list of {question, supporting_passage_ids}: document ids, "
                           "or the paths or file names the documents were indexed from.")
    ],
    corpus: Annotated[
        Path | None,
        typer.Option(help="Triplet corpus (indexed first; no-op if done). Without it the graph "
                     "is evaluated as it is, e.g. after `index --method fast`."),
    ] = None,
    method: Annotated[
        str, typer.Option(help=f"Comma-separated, of: {method_list()}.")
    ] = ",".join(EVAL_METHODS),
    k: Annotated[str, typer.Option(help="Comma-separated cut-offs for Recall@k.")] = "2,5",
    per_question: Annotated[
        Path | None, typer.Option(help="Write one JSON line per method and question here.")
    ] = None,
    limit: Annotated[int | None, typer.Option(help="Only the first N questions.")] = None,
    compare_hybrid: Annotated[
        bool, typer.Option(help="Run each method without and with hybrid retrieval.")
    ] = False,
    settings: SetOption = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Index the corpus if given and needed, rank passages for every question, print Recall@k."""
    use_workspace(workspace)
    from graphrag_neo4j.engine import GraphRAG

    ks = _int_list(k)
    overrides = search_settings_set(settings)
    methods = listed_methods(method)
    items = read_questions(questions, limit)
    runs = variants(methods, overrides, compare_hybrid)
    with GraphRAG(settings=settings_with(overrides), console=console) as rag, ExitStack() as stack:
        prepare_graph(rag, corpus, console)
        items = questions_in_graph(rag.store, items, questions, console)
        sink = stack.enter_context(per_question.open("w")) if per_question else None
        results = rag.run(evaluate_runs(rag, runs, items, ks, sink, console))
        out.print(results_table(results, ks, len(items), overrides))
        if comparisons := against_baseline(results, EVAL_BASELINE):
            out.print(significance_table(comparisons))
        if rag.llm_in_use:  # a method's retrieval called the LLM (hops.rerank, say)
            console.print(rag.llm.usage_table("LLM usage (retrieval calls)"))


app.command("answers")(answers_command)

def results_table(
    results: list[MethodResult], ks: list[int], n_questions: int, overrides: dict[str, Any]
) -> Table:
    """One row per method: Recall@k columns and the time per question."""
    notes = ", ".join(f"{key}={value}" for key, value in overrides.items()) or "settings defaults"
    table = Table(title=f"Retrieval recall on {n_questions} questions ({notes})")
    table.add_column("method")
    for cut in sorted(ks):
        table.add_column(f"Recall@{cut}", justify="right")
    table.add_column("ms/question (mean)", justify="right")
    table.add_column("median", justify="right")
    for result in results:
        if result.unavailable:
            table.add_row(result.method, *["n/a"] * len(ks), "not available", "")
            continue
        cells = [f"{result.recall(cut):.1f}" for cut in sorted(ks)]
        table.add_row(result.method, *cells, f"{result.mean_ms:.0f}", f"{result.median_ms:.0f}")
    return table


def significance_table(comparisons: list[list[RecallComparison]]) -> Table:
    """Per method: each Recall@k's difference to the baseline with its 95 % interval and the
    questions it ranks better and worse, McNemar's p at the largest k, whether beyond chance."""
    first = comparisons[0]
    table = Table(title=f"Against {first[0].baseline} on the same questions (paired; recall"
                  " points with a 95 % bootstrap interval; questions better / worse)")
    table.add_column("method", no_wrap=True)
    for c in first:
        # The interval whole: wrapped, "[+1.8, +4.8]" lost its end to the next line.
        table.add_column(f"Recall@{c.k}", justify="right", no_wrap=True)
    table.add_column(f"McNemar p @{first[-1].k}", justify="right")
    table.add_column("beyond chance", justify="right")
    for row in comparisons:
        cells = [f"{c.difference:+.1f} [{c.low:+.1f}, {c.high:+.1f}]\n+{c.gained} / -{c.lost}"
                 for c in row]
        differs = ", ".join(f"@{c.k}" for c in row if c.differs) or "no"
        table.add_row(row[0].method, *cells, f"{row[-1].p_value:.3f}", differs)
    return table
