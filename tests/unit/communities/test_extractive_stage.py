"""The extractive stage's decisions: which communities get an extract, which reports stay."""

from __future__ import annotations

from typing import Any

from graphrag_neo4j.communities.context import TokenCounter
from graphrag_neo4j.communities.extractive import Extract, Member, Sentence
from graphrag_neo4j.communities.extractive_stage import (
    ExtractiveCounts,
    GraphText,
    plan_rows,
    summarize_level,
)
from graphrag_neo4j.settings import CommunitySettings


def test_each_level_community_reads_only_sentences_about_its_members() -> None:
    members = {i: Member(i, name, 1) for i, name in [("a", "Ann"), ("b", "Ben"), ("c", "Cy")]}
    text = GraphText(members, [Sentence("Ann met Ben.", {"a", "b"}), Sentence("Cy slept.", {"c"}),
                               Sentence("Nobody came.", set())])
    extracts = summarize_level(text, {"c1": frozenset({"a", "b"}), "c2": frozenset({"c"})},
                               CommunitySettings(), TokenCounter())
    assert extracts["c1"].summary == "Ann met Ben." and extracts["c2"].summary == "Cy slept."


def test_extracts_replace_old_extracts_and_stale_reports_but_keep_current_reports() -> None:
    new = {cid: Extract("T", "S", f"h-{cid}") for cid in ("fresh", "same", "moved", "report",
                                                           "stale", "older", "unembedded")}
    state: list[dict[str, Any]] = [
        {"id": "same", "report_status": "extractive", "extractive_hash": "h-same",
         "embedded": True},
        {"id": "moved", "report_status": "extractive", "extractive_hash": "old", "embedded": True},
        {"id": "report", "report_status": "ok", "extractive_hash": "h-report", "embedded": True},
        {"id": "stale", "report_status": "ok", "extractive_hash": "old", "embedded": True},
        {"id": "older", "report_status": "ok", "extractive_hash": None, "embedded": True},
        {"id": "unembedded", "report_status": "extractive", "extractive_hash": "h-unembedded",
         "embedded": False},
    ]
    counts = ExtractiveCounts()
    rows = {row["id"]: row["replace"] for row in plan_rows(new, state, counts)}
    assert rows == {"fresh": True, "moved": True, "stale": True, "older": False,
                    "unembedded": True}
    assert (counts.written, counts.unchanged, counts.reports_kept) == (4, 1, 2)


def test_a_rewritten_extract_keeps_its_vector_only_when_its_title_and_summary_are_unchanged(
) -> None:
    new = {"members": Extract("T", "S", "h-new"), "text": Extract("T", "S2", "h-new2"),
           "was report": Extract("T", "S", "h-new3"), "no vector": Extract("T", "S", "h-new4")}
    state: list[dict[str, Any]] = [
        {"id": "members", "report_status": "extractive", "extractive_hash": "h-old",
         "embedded": True, "title": "T", "summary": "S"},
        {"id": "text", "report_status": "extractive", "extractive_hash": "h-old",
         "embedded": True, "title": "T", "summary": "S"},
        {"id": "was report", "report_status": "ok", "extractive_hash": "h-old",
         "embedded": True, "title": "T", "summary": "S"},
        {"id": "no vector", "report_status": "extractive", "extractive_hash": "h-old",
         "embedded": False, "title": "T", "summary": "S"},
    ]
    counts = ExtractiveCounts()
    rows = {row["id"]: row for row in plan_rows(new, state, counts)}
    assert {cid: row["keep_embedding"] for cid, row in rows.items()} == {
        "members": True, "text": False, "was report": False, "no vector": False}
    assert all(row["replace"] for row in rows.values()) and counts.vectors_kept == 1
