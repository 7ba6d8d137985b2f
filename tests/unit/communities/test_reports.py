"""Community reports: tolerant JSON parsing, one retry on broken JSON, a marked fallback."""

from __future__ import annotations

import json
from pathlib import Path

from graphrag_neo4j.communities.context import ReportContext
from graphrag_neo4j.communities.reports import (
    Report,
    ReportWriter,
    fallback_report,
    parse_report,
)
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.settings import LLMSettings

GOOD = {
    "title": "Euler and Basel",
    "summary": "Mathematicians of Basel.",
    "rating": "7.5",
    "rating_explanation": "Central to the corpus.",
    "findings": [{"summary": "Euler studied under Bernoulli",
                  "explanation": "He did. [Data: Entities (e1); Relationships (r1)]"}],
}


def test_parses_plain_fenced_and_chatty_replies() -> None:
    plain = json.dumps(GOOD)
    for reply in (plain, f"```json\n{plain}\n```", f"Sure! Here it is:\n{plain}\nHope it helps."):
        report = parse_report(reply)
        assert report is not None and report.title == "Euler and Basel"
        assert report.rating == 7.5 and report.status == "ok"
        assert report.findings[0].explanation.endswith("(r1)]")


def test_rating_is_clamped_and_findings_tolerate_strings() -> None:
    report = parse_report(json.dumps({**GOOD, "rating": 42, "findings": ["Just a point"]}))
    assert report is not None and report.rating == 10.0
    assert report.findings[0].summary == "Just a point"


def test_broken_or_incomplete_replies_are_rejected() -> None:
    assert parse_report("I cannot do that.") is None
    assert parse_report('{"title": "x", "summary": ') is None
    assert parse_report(json.dumps({**GOOD, "findings": []})) is None
    assert parse_report(json.dumps({**GOOD, "rating": "high"})) is None
    assert parse_report(json.dumps({**GOOD, "title": ""})) is None


def test_a_reply_cut_off_by_the_token_limit_keeps_its_complete_findings() -> None:
    findings = [{"summary": f"Point {n}", "explanation": "Said so {braces} [Data: Entities (e1)]"}
                for n in (1, 2, 3)]
    whole = "```json\n" + json.dumps({**GOOD, "findings": findings}, indent=2) + "\n```"
    cut = whole[: whole.index("Point 3") + 12]  # mid-way through the third finding
    report = parse_report(cut)
    assert report is not None and report.title == "Euler and Basel" and report.rating == 7.5
    assert [f.summary for f in report.findings] == ["Point 1", "Point 2"]
    assert report.findings[1].explanation == "Said so {braces} [Data: Entities (e1)]"
    # Cut before any finding is complete: no report (the retry and the fallback take over).
    assert parse_report(whole[: whole.index("Point 1")]) is None


def test_full_content_is_markdown_and_findings_are_json() -> None:
    report = parse_report(json.dumps(GOOD))
    assert report is not None
    assert report.full_content.startswith("# Euler and Basel\n\nMathematicians of Basel.")
    assert "## Euler studied under Bernoulli" in report.full_content
    assert json.loads(report.findings_json) == GOOD["findings"]


def test_fallback_is_marked_and_names_members() -> None:
    report = fallback_report("c1", [f"name {i}" for i in range(15)])
    assert report.status == "fallback" and report.rating == 0.0
    assert report.title == "Community c1 (report unavailable)"
    assert "name 0" in report.summary and "3 more" in report.summary


def _context(text: str, names: list[str]) -> ReportContext:
    return ReportContext(text, 10, ["e1"], ["r1"], [], names)


def _writer(rules: list[tuple[str, str]], tmp_path: Path) -> tuple[ReportWriter, FakeChatModel]:
    model = FakeChatModel(rules=list(rules))
    caller = LLMCaller(model, LLMSettings(), tmp_path, backoff_initial_s=0.0)
    return ReportWriter(caller, max_tokens=500), model


async def test_broken_json_is_retried_once_with_a_different_prompt(tmp_path: Path) -> None:
    writer, model = _writer([("not valid JSON", json.dumps(GOOD)),
                             ("MEMBER TABLE", "oops")], tmp_path)
    report = await writer.write("c1", _context("MEMBER TABLE", ["A"]))
    assert isinstance(report, Report) and report.status == "ok"
    assert report.findings[0].explanation.endswith("[Data: Entities (e1); Relationships (r1)]")
    assert len(model.calls) == 2 and model.calls[0].prompt != model.calls[1].prompt


async def test_two_broken_answers_give_a_fallback_and_the_cache_is_used_on_rerun(
    tmp_path: Path,
) -> None:
    writer, model = _writer([("MEMBER TABLE", "still not json")], tmp_path)
    report = await writer.write("c9", _context("MEMBER TABLE", ["Alpha", "Beta"]))
    assert report.status == "fallback" and "Alpha, Beta" in report.summary
    assert len(model.calls) == 2
    again = await writer.write("c9", _context("MEMBER TABLE", ["Alpha", "Beta"]))
    assert again == report and len(model.calls) == 2
