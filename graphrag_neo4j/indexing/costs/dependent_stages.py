"""Rows for the stages whose LLM calls scale with what extraction finds (resolution, reports)."""

from __future__ import annotations

from dataclasses import dataclass

from graphrag_neo4j.llm.costs.estimate import Range, StageEstimate
from graphrag_neo4j.llm.costs.profile import ModelProfile
from graphrag_neo4j.llm.tokens.counting import count_tokens
from graphrag_neo4j.runtime.resources import load_prompt
from graphrag_neo4j.settings import Settings

REPORTS = "community reports"
# Without earlier runs of this model: at most this many calls per newly extracted chunk.
RULE_OF_THUMB_CALLS_PER_CHUNK = 1.0
# Earlier runs' rate per extraction call, widened both ways for a range.
SPREAD = 0.5


@dataclass(frozen=True)
class Dependent:
    """A stage whose calls scale with what extraction found, and the prompt it sends."""

    name: str
    stats_stage: str
    prompt: str
    fill_tokens: int  # most tokens the filled-in fields add to the template
    max_tokens: int
    # Most calls one item can take: a report is asked again once (communities.reports.
    # CALLS_PER_REPORT, not imported: communities builds on indexing, not the reverse).
    attempts: int = 1


def _calls(profile: ModelProfile, stage: Dependent, new_chunks: float) -> tuple[Range, str]:
    rate = profile.calls_per_extraction(stage.stats_stage)
    if rate is None:  # earlier runs' rates count retries; the rule of thumb must add them
        high = new_chunks * RULE_OF_THUMB_CALLS_PER_CHUNK * stage.attempts
        return Range(0, high), "rule of thumb"
    expected = new_chunks * rate
    return Range(expected * (1 - SPREAD), expected * (1 + SPREAD), expected), "earlier runs"


def _prompt_per_call(profile: ModelProfile, stage: Dependent, settings: Settings) -> Range:
    measured = profile.prompt_per_call(stage.stats_stage)
    if measured is not None:
        return Range(measured * (1 - SPREAD), measured * (1 + SPREAD), measured)
    template = count_tokens(load_prompt(stage.prompt, settings.prompts_dir))
    return Range(template, template + stage.fill_tokens)


def dependent_row(profile: ModelProfile, settings: Settings, stage: Dependent,
                  new_chunks: float) -> StageEstimate:
    """The range row of one dependent stage, from earlier runs or the rule of thumb."""
    calls, source = _calls(profile, stage, new_chunks)
    per_call = _prompt_per_call(profile, stage, settings)
    prompt = Range(calls.low * per_call.low, calls.high * per_call.high,
                   calls.expected * per_call.expected)
    return profile.llm_stage(stage.name, calls, prompt, max_tokens=stage.max_tokens,
                             note=f"depends on extraction ({source})",
                             stats_stage=stage.stats_stage)


def reports_row(profile: ModelProfile, settings: Settings, new_chunks: float) -> StageEstimate:
    """Community reports (written by `communities --build`, or lazily by global search)."""
    communities = settings.communities
    stage = Dependent(REPORTS, REPORTS, "communities/report", communities.report_max_input_tokens,
                      communities.report_max_tokens, attempts=2)
    return dependent_row(profile, settings, stage, new_chunks)
