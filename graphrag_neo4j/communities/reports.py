"""Community reports: prompt, tolerant JSON parsing, one retry, and a marked fallback."""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from graphrag_neo4j.citations import clean_citations
from graphrag_neo4j.communities.context import ReportContext
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.runtime.resources import load_prompt

STAGE = "community reports"
PROMPT = "communities/report"
RETRY_PROMPT = "communities/report_retry"
# Most calls one report takes: the first, and one retry after a reply that is no report.
CALLS_PER_REPORT = 2
MAX_FINDINGS = 10
FALLBACK_NAMES = 12
_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)

Status = Literal["ok", "fallback"]


@dataclass(frozen=True)
class Finding:
    """One insight of a report, its explanation citing the rows it rests on."""

    summary: str
    explanation: str


@dataclass(frozen=True)
class Report:
    """A community report in Microsoft GraphRAG's shape; `status` marks fallbacks."""

    title: str
    summary: str
    rating: float
    rating_explanation: str
    findings: list[Finding] = field(default_factory=list)
    status: Status = "ok"

    @property
    def findings_json(self) -> str:
        """The findings as a JSON list of {summary, explanation} (Neo4j has no list of maps)."""
        return json.dumps([asdict(f) for f in self.findings], ensure_ascii=False)

    def cited_within(self, context: ReportContext) -> Report:
        """The report with citations kept only where they name rows the context showed."""
        known = {"Entities": set(context.entity_ids), "Relationships": set(context.relation_ids),
                 "Reports": set(context.report_ids)}
        findings = [Finding(f.summary, clean_citations(f.explanation, known))
                    for f in self.findings]
        return replace(self, summary=clean_citations(self.summary, known), findings=findings)

    @property
    def full_content(self) -> str:
        """The report rendered as markdown."""
        parts = [f"# {self.title}", self.summary,
                 f"## Rating: {self.rating:g}/10", self.rating_explanation]
        for finding in self.findings:
            parts += [f"## {finding.summary}", finding.explanation]
        return "\n\n".join(p.strip() for p in parts if p.strip())


def _json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in a reply, inside code fences or surrounded by chatter."""
    fenced = _FENCE.search(text)
    candidates = [fenced.group(1), text] if fenced else [text]
    decoder = json.JSONDecoder()
    for candidate in candidates:
        start = candidate.find("{")
        while start != -1:
            try:
                value, _end = decoder.raw_decode(candidate, start)
            except json.JSONDecodeError:
                start = candidate.find("{", start + 1)
                continue
            if isinstance(value, dict):
                return value
            start = candidate.find("{", start + 1)
    return None


# How many cut points a truncated reply is tried at, last complete object first.
_MAX_CUTS = 40


def _closing(prefix: str) -> str | None:
    """The brackets that close `prefix` (None when it ends inside a string)."""
    stack: list[str] = []
    in_string = escaped = False
    for char in prefix:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            stack.append("}" if char == "{" else "]")
        elif char in "}]" and stack:
            stack.pop()
    return None if in_string else "".join(reversed(stack))


def _cut_short(text: str) -> dict[str, Any] | None:
    """A reply cut off by the token limit, closed after its last complete object.

    Small models spend their `report_max_tokens` on long findings; the title, summary, rating
    and the findings before the cut are still a report (a retry would be cut off again).
    """
    start = text.find("{")
    if start == -1:
        return None
    body = text[start:]
    ends = [i for i, char in enumerate(body) if char == "}"][-_MAX_CUTS:]
    for end in reversed(ends):
        prefix = body[: end + 1]
        closing = _closing(prefix)
        if closing is None:
            continue
        try:
            value = json.loads(prefix + closing)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _rating(value: object) -> float | None:
    try:
        rating = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return None if math.isnan(rating) else min(10.0, max(0.0, rating))


def _findings(value: object) -> list[Finding]:
    findings = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, dict):
            summary = _text(item.get("summary")) or _text(item.get("title"))
            explanation = _text(item.get("explanation")) or _text(item.get("text"))
        else:
            summary, explanation = _text(item), ""
        if summary or explanation:
            findings.append(Finding(summary or explanation[:80], explanation))
    return findings[:MAX_FINDINGS]


def parse_report(reply: str) -> Report | None:
    """The report in a model reply, or None when it lacks a usable JSON report."""
    data = _json_object(reply)
    if data is None or "title" not in data:  # a cut-off reply decodes only as a finding
        data = _cut_short(reply) or data
    if data is None:
        return None
    title, summary = _text(data.get("title")), _text(data.get("summary"))
    rating = _rating(data.get("rating"))
    findings = _findings(data.get("findings"))
    if not title or not summary or rating is None or not findings:
        return None
    return Report(title, summary, rating, _text(data.get("rating_explanation")), findings)


def fallback_report(community_id: str, member_names: list[str]) -> Report:
    """A clearly marked stand-in when the model gave no valid report twice."""
    names = ", ".join(member_names[:FALLBACK_NAMES])
    more = len(member_names) - FALLBACK_NAMES
    if more > 0:
        names += f" and {more} more"
    return Report(
        title=f"Community {community_id} (report unavailable)",
        summary=f"No report could be generated for this community. Its members: {names}.",
        rating=0.0,
        rating_explanation="Not rated: the model's answer was not a valid report.",
        status="fallback",
    )


@dataclass(frozen=True)
class ReportWriter:
    """Asks the LLM for one community's report; one retry on broken JSON, then a fallback."""

    llm: LLMCaller
    max_tokens: int
    prompts_dir: Path | None = None

    def prompt(self, context: str) -> str:
        """The report prompt for one community's context."""
        template = load_prompt(PROMPT, self.prompts_dir)
        return template.format(context=context, max_words=max(200, self.max_tokens * 3 // 4))

    def template_identity(self) -> str:
        """What besides the context decides a report: the prompts and the model."""
        return "\n".join([load_prompt(PROMPT, self.prompts_dir),
                          load_prompt(RETRY_PROMPT, self.prompts_dir), self.llm.identity])

    async def write(self, community_id: str, context: ReportContext) -> Report:
        """The parsed report, or the marked fallback after two unusable answers."""
        prompt = self.prompt(context.text)
        reply = await self.llm.complete(prompt, stage=STAGE, max_tokens=self.max_tokens)
        report = parse_report(reply)
        if report is None:
            # A different prompt, so the response cache cannot hand back the same broken reply.
            retry = prompt + load_prompt(RETRY_PROMPT, self.prompts_dir)
            reply = await self.llm.complete(retry, stage=STAGE, max_tokens=self.max_tokens)
            report = parse_report(reply)
        if report is None:
            return fallback_report(community_id, context.member_names)
        return report.cited_within(context)
