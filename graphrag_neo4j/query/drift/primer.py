"""DRIFT's primer: the community reports nearest the question (lazy ones written), one call."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graphrag_neo4j.query.answers.passages import NO_DATA
from graphrag_neo4j.query.base import Query, Services
from graphrag_neo4j.query.context import Row, TableBuilder, history_block
from graphrag_neo4j.query.drift.steps import Step, parse_step
from graphrag_neo4j.query.global_search.lazy_reports import (
    Written,
    extractive,
    nearest,
    waiting,
    write_reports,
)
from graphrag_neo4j.query.retrieval.candidates import ann_candidates
from graphrag_neo4j.runtime.resources import load_prompt


@dataclass(frozen=True)
class PrimerReports:
    """The communities nearest the question, nearest first; the lazy reports written for them,
    and why any extractive summaries among them stand in for reports."""

    rows: list[Row]
    written: Written | None
    reason: str

    def notes(self, shown: Sequence[Row]) -> list[str]:
        """What writing cost, and how many of the rows the primer was shown are extracts."""
        notes = [self.written.note] if self.written is not None else []
        left = extractive(shown)
        return [*notes, extractive_note(left, self.reason)] if left else notes


def extractive_reason(rows: Sequence[Row], write: bool, budget: int) -> str:
    """Why these extractive summaries stand in for LLM reports."""
    if not write:
        return "retrieval only writes no reports"
    if all(row.get("report_mode") == "none" for row in rows):
        return ("their communities were built with `--reports none` or are smaller than"
                " communities.min_report_size")
    if budget <= 0:
        return "search.lazy_report_budget is 0"
    return f"search.lazy_report_budget ({budget}) went to nearer communities"


def extractive_note(rows: Sequence[Row], reason: str) -> str:
    """Says the primer read extractive summaries as reports, and why."""
    n = len(rows)
    return (f"The primer read {n} extractive community summar{'y' if n == 1 else 'ies'}"
            f" (title and summary, no LLM report) in place of reports: {reason}.")


async def _vector(services: Services, query: Query) -> list[float]:
    """The question's vector, or with `drift.hyde` that of the question and a guessed answer."""
    text = query.question
    if query.search.drift.hyde:
        prompt = load_prompt("query/drift/hyde", services.settings.prompts_dir).format(
            question=query.question, history=history_block(query.history)
        )
        text += "\n" + await services.llm.complete(prompt, stage="drift_hyde")
    return await services.embedder.embed_query(text)


async def primer_reports(services: Services, query: Query, write: bool) -> PrimerReports:
    """The `drift.primer_k` communities nearest the question over every level.

    On a lazy graph (extractive summaries only) the nearest without an LLM report get one,
    at most `lazy_report_budget`, unless `write` is off (retrieval only); the rest stay
    extractive summaries (`notes` says so for those the primer shows).
    """
    search = query.search
    k = search.drift.primer_k
    rows = await nearest(services, await _vector(services, query), k, ann_candidates(k))
    budget = search.lazy_report_budget
    written = None
    if write and budget > 0 and waiting(rows):
        written = await write_reports(services, rows, budget)
        rows = written.rows
    return PrimerReports(rows, written, extractive_reason(extractive(rows), write, budget))


async def prime(services: Services, query: Query, reports: Sequence[Row]
                ) -> tuple[Step, list[Row]]:
    """One primer call over the reports that fit its budget; the rows it was shown."""
    table = TableBuilder("Reports", ["title", "content"], query.search.drift.primer_tokens)
    table.fill(reports, lambda r: (r["title"], r["full_content"]))
    prompt = load_prompt("query/drift/primer", services.settings.prompts_dir).format(
        followups=query.search.drift.k_followups,
        history=history_block(query.history),
        context=table.render() or NO_DATA,
        question=query.question,
    )
    reply = await services.llm.complete(prompt, stage="drift_primer")
    return parse_step(reply, query.question, 0), table.rows
