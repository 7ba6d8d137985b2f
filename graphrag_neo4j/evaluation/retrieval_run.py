"""`eval retrieval` as a run: each method (with and without hybrid retrieval when compared)
ranks passages for every question, then each is compared with the baseline."""

from __future__ import annotations

from functools import partial
from typing import IO, TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import Progress
from rich.text import Text

from graphrag_neo4j.evaluation.retrieval import (
    EvalQuestion,
    MethodResult,
    evaluate_method,
    ranker_for,
)

if TYPE_CHECKING:
    from graphrag_neo4j.engine import GraphRAG
    from graphrag_neo4j.evaluation.retrieval_significance import RecallComparison

Run = tuple[str, str, dict[str, Any]]


def variants(methods: list[str], overrides: dict[str, Any], compare_hybrid: bool) -> list[Run]:
    """(label, method, overrides) per evaluation run: one per method, or two with --compare."""
    if not compare_hybrid:
        return [(name, name, overrides) for name in methods]
    return [
        (f"{name} +hybrid" if on else name, name, {**overrides, "hybrid.enabled": on})
        for name in methods for on in (False, True)
    ]


async def evaluate_runs(
    rag: GraphRAG, runs: list[Run], items: list[EvalQuestion], ks: list[int],
    sink: IO[str] | None, console: Console,
) -> list[MethodResult]:
    """Each run's recall on every question, with a progress bar; a method the graph cannot
    run is said once and kept as unavailable."""
    # Load the embedder and open the connection before any question is timed.
    await rag.embedder.embed_query("warm-up")
    results = []
    with Progress(console=console, transient=True) as progress:
        for label, name, overrides in runs:
            ranker = ranker_for(rag, name, overrides)
            if isinstance(ranker, str):
                note = Text.assemble((f"{label} is not available:", "yellow"), f" {ranker}.")
                console.print(note)
                results.append(MethodResult(label, ks, unavailable=ranker))
                continue
            task = progress.add_task(label, total=len(items))
            results.append(await evaluate_method(
                label, ranker, items, ks, sink, partial(progress.advance, task)
            ))
    return results


def against_baseline(
    results: list[MethodResult], baseline: str
) -> list[list[RecallComparison]]:
    """Every other method against the baseline, per k (scipy.stats loads only here)."""
    from graphrag_neo4j.evaluation import retrieval_significance

    return retrieval_significance.against_baseline(results, baseline)
