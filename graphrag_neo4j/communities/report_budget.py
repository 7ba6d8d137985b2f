"""What community reports cost, and report writing under --max-cost / --max-llm-calls."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_neo4j.communities.reports import CALLS_PER_REPORT, STAGE, ReportWriter
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.messages import prompt_messages
from graphrag_neo4j.llm.costs.budget import Budget, BudgetExceededError
from graphrag_neo4j.llm.costs.estimate import Range, StageEstimate
from graphrag_neo4j.llm.costs.profile import ModelProfile

REPORTS_ROW = "community reports"

# Per report: the exact prompt tokens of its first call, or None when the cache holds the reply.
PromptTokens = int | None


def first_call_tokens(llm: LLMCaller, writer: ReportWriter, contexts: Sequence[str]
                      ) -> list[PromptTokens]:
    """The prompt tokens of each context's first report call as the writer would send it,
    None where the response cache already holds the reply (blocking: cache and tokenizer)."""
    messages = [prompt_messages(writer.prompt(text)) for text in contexts]
    params = {"max_tokens": writer.max_tokens}
    keys = [llm.request_key(request, params) for request in messages]
    cached = llm.cached_texts(keys)
    return [None if key in cached else llm.count_prompt(request)
            for key, request in zip(keys, messages, strict=True)]


def reports_estimate(profile: ModelProfile, tokens: Sequence[PromptTokens], max_tokens: int,
                     reused: int = 0) -> StageEstimate:
    """The estimate row of writing these reports: one call each, or two when the first reply
    is no valid report; completion from measured ratios, bounded by `max_tokens`."""
    fresh = [t for t in tokens if t is not None]
    calls, prompt = len(fresh), sum(fresh)
    return profile.llm_stage(
        REPORTS_ROW, Range(calls, CALLS_PER_REPORT * calls),
        Range(prompt, CALLS_PER_REPORT * prompt), max_tokens=max_tokens,
        cached=len(tokens) - calls + reused, stats_stage=STAGE,
        note="a reply that is no valid report is asked again once",
    )


def reports_that_fit(budget: Budget, tokens: Sequence[PromptTokens], max_tokens: int) -> int:
    """How many of these reports, in order, can be written at once without any chance of
    passing the limits: each fresh one costs a call, its exact prompt and `max_tokens` of
    completion on top of what the run has spent; cached ones are free."""
    calls = prompt = completion = 0
    for count, value in enumerate(tokens):
        if value is None:
            continue
        calls, prompt, completion = calls + 1, prompt + value, completion + max_tokens
        if budget.passes(calls, prompt, completion) is not None:
            return count
    return len(tokens)


class ReportsStoppedError(BudgetExceededError):
    """Report writing stopped before a report that could pass a limit; the reports written
    are stored and the `left` ones (their first-call tokens) keep their extractive summaries."""

    def __init__(self, message: str, limit: str, left: list[PromptTokens]) -> None:
        super().__init__(message, limit)
        self.left = left


def stop_before(budget: Budget, where: str, left: list[PromptTokens], max_tokens: int
                ) -> ReportsStoppedError:
    """The stop before the first of `left`, the report at `where` (e.g. "report 3 of 9 on
    level 1"), saying what it could cost and which limit that would pass."""
    tokens = next(t for t in left if t is not None)  # a cached report always fits
    limit = budget.passes(1, tokens, max_tokens) or "the limit"
    money = ""
    if budget.prices is not None:
        money = f" and up to ${budget.prices.cost(tokens, max_tokens):.4f}"
    return ReportsStoppedError(f"{where}, whose 1 LLM call{money} would pass {limit}", limit, left)


def refused_retry(exc: BudgetExceededError, where: str, left: list[PromptTokens]
                  ) -> ReportsStoppedError:
    """The stop when the call path refused a report's second call (its first reply was no
    valid report): that report is left too."""
    return ReportsStoppedError(
        f"{where}, whose retry after an invalid reply would pass {exc.limit}", exc.limit, left)


def stop_sentence(stop: ReportsStoppedError, written: int, reused: int, left: int,
                  rest: StageEstimate, spent: str) -> str:
    """The one sentence a stopped build ends with: where, what was written, what is left."""
    cost = (f"estimated {rest.cost.text('.4f', '$')}" if rest.cost is not None
            else "cost unknown: the model has no price")
    return (
        f"Stopped community reports before {stop} ({spent} used): {written:,} reports written"
        f" and stored this run ({reused:,} reused), {left:,} left with their extractive"
        f" summaries ({cost}), and the same command run again (with a higher limit) writes"
        " only those."
    )
