"""Stages whose LLM calls depend on what extraction finds: resolution, summaries, reports."""

from __future__ import annotations

from dataclasses import dataclass

from graphrag_neo4j.llm.costs.estimate import Range, StageEstimate
from graphrag_neo4j.llm.costs.profile import ModelProfile
from graphrag_neo4j.llm.tokens import count_tokens
from graphrag_neo4j.resources import load_prompt
from graphrag_neo4j.settings import Settings

RESOLUTION, SUMMARIES, REPORTS = "resolution", "summaries", "community reports"
# Without earlier runs of this model: at most this many calls per newly extracted chunk.
RULE_OF_THUMB_CALLS_PER_CHUNK = 1.0
# Earlier runs' rate per extraction call, widened both ways for a range.
SPREAD = 0.5


@dataclass(frozen=True)
class _Dependent:
    name: str
    stats_stage: str
    prompt: str
    fill_tokens: int  # most tokens the filled-in fields add to the template
    max_tokens: int
    # Most calls one item can take: a report is asked again once (communities.reports.
    # CALLS_PER_REPORT, not imported: communities builds on indexing, not the reverse).
    attempts: int = 1


def _stages(settings: Settings) -> list[_Dependent]:
    budget = settings.extraction.summary_token_budget
    return [
        _Dependent(RESOLUTION, "resolve", "resolve_entities", 600, settings.llm.max_tokens),
        _Dependent(SUMMARIES, "summarize", "summarize_descriptions", 4 * budget,
                   settings.llm.max_tokens),
        _Dependent(REPORTS, REPORTS, "community_report",
                   settings.communities.report_max_input_tokens,
                   settings.communities.report_max_tokens, attempts=2),
    ]


def _calls(profile: ModelProfile, stage: _Dependent, new_chunks: int) -> tuple[Range, str]:
    rate = profile.calls_per_extraction(stage.stats_stage)
    if rate is None:  # earlier runs' rates count retries; the rule of thumb must add them
        high = new_chunks * RULE_OF_THUMB_CALLS_PER_CHUNK * stage.attempts
        return Range(0, high), "rule of thumb"
    expected = new_chunks * rate
    return Range(expected * (1 - SPREAD), expected * (1 + SPREAD), expected), "earlier runs"


def _prompt_per_call(profile: ModelProfile, stage: _Dependent, settings: Settings) -> Range:
    measured = profile.prompt_per_call(stage.stats_stage)
    if measured is not None:
        return Range(measured * (1 - SPREAD), measured * (1 + SPREAD), measured)
    template = count_tokens(load_prompt(stage.prompt, settings.prompts_dir))
    return Range(template, template + stage.fill_tokens)


def dependent_stages(profile: ModelProfile, settings: Settings, new_chunks: int, *,
                     method: str = "llm", reports: bool = True) -> list[StageEstimate]:
    """Range rows for resolution, summaries and (with `reports`) community reports."""
    rows = []
    for stage in _stages(settings):
        if stage.name == REPORTS and not reports:
            continue
        # Fast extraction asks the LLM nothing before reports unless it summarises with it.
        if stage.name != REPORTS and method != "llm" and not settings.extraction.fast.llm_summaries:
            rows.append(StageEstimate(stage.name, note=f"{method}: no LLM"))
            continue
        if stage.name == RESOLUTION and not settings.extraction.resolution:
            rows.append(StageEstimate(stage.name, note="resolution is off"))
            continue
        calls, source = _calls(profile, stage, new_chunks)
        per_call = _prompt_per_call(profile, stage, settings)
        prompt = Range(calls.low * per_call.low, calls.high * per_call.high,
                       calls.expected * per_call.expected)
        note = f"depends on extraction ({source})"
        rows.append(profile.llm_stage(stage.name, calls, prompt, max_tokens=stage.max_tokens,
                                      note=note, stats_stage=stage.stats_stage))
    return rows
