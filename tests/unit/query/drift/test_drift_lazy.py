"""DRIFT on a graph of extractive summaries: lazy reports within the budget, notes, retrieval."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphrag_neo4j.llm.testing import Rule
from graphrag_neo4j.query.answers.run import retrieve_only, run_query
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.drift.primer import extractive_note
from tests.unit.query.drift.test_drift import (
    FOLLOW_UP,
    LOCAL_READS,
    PRIMER,
    REDUCE,
    drift_over,
    follow_up_reply,
    primer_reply,
)
from tests.unit.query.fakes import FakeServices, fake_services
from tests.unit.query.global_search.test_lazy_reports import context_row, extract, report

Row = dict[str, Any]
REPORT_PROMPT = "briefing reports on communities"
QUESTION = "How does Scrooge treat his clerk?"
# Nearest first: an extract, a report written earlier, two more extracts (two levels).
NEAREST = [
    {**extract("k1", "Scrooge and Marley"), "score": 0.9},
    {**extract("k2", "Fezziwig's ball", status="ok"), "level": 1, "rank": 6.0, "score": 0.8},
    {**extract("k3", "Tiny Tim"), "level": 1, "score": 0.7},
    {**extract("k4", "Fred's dinner"), "score": 0.6},
]


def lazy_services(tmp: Path, rules: list[Rule], nearest: list[Row] | None = None,
                  contexts: list[Row] | None = None) -> FakeServices:
    rows = {"query/search/search_communities_by_vector": NEAREST if nearest is None else nearest,
            "communities/reports/community_contexts": contexts or [], **LOCAL_READS}
    return fake_services(rows, rules, tmp)


def primer_prompt(services: FakeServices) -> str:
    (prompt,) = [c.prompt for c in services.chat.calls if PRIMER in c.prompt]
    return prompt


def report_writes(services: FakeServices) -> list[Row]:
    return [row for name, rows in services.store.writes
            if name == "communities/reports/set_community_reports" for row in rows]


async def test_the_primer_writes_the_nearest_missing_reports_within_the_budget(
    tmp_path: Path,
) -> None:
    services = lazy_services(tmp_path, [
        (REPORT_PROMPT, report), (PRIMER, primer_reply(60)), (FOLLOW_UP, follow_up_reply),
        (REDUCE, "Scrooge scolds Bob [Data: Reports (1, 3)]."),
    ], contexts=[context_row("k1", "Scrooge"), context_row("k3", "Tim")])
    query = make_query(services.settings, QUESTION, lazy_report_budget=2,
                       drift={"depth": 1})
    answer = await run_query(services, drift_over(services), query)
    # The two nearest extracts got reports (k1, k3); k2 had one; k4 was past the budget.
    assert [
        p["ids"] for p in services.store.params_of("communities/reports/community_contexts")
    ] == [["k1", "k3"]]
    assert [(r["id"], r["report_status"]) for r in report_writes(services)] == [
        ("k1", "ok"), ("k3", "ok")]
    assert services.llm.usage.stages()["community reports"].calls == 2
    search = services.store.params_of("query/search/search_communities_by_vector")
    assert search[0]["level"] is None and search[0]["k"] == 5
    shown = primer_prompt(services).split("-----Question-----")[0]
    assert "Scrooge report" in shown and "Tim report" in shown and "Fred's dinner" in shown
    assert "Scrooge and Marley" not in shown
    assert answer.note_texts()[:2] == [
        "Wrote 2 community reports for this question; 1 reused.",
        extractive_note([NEAREST[3]], "search.lazy_report_budget (2) went to nearer communities"),
    ]
    assert answer.text == "Scrooge scolds Bob [Data: Reports (1, 3)]."
    cited = {r["ref"]: r["title"] for r in answer.sources["Reports"]}
    assert cited[1] == "Scrooge report" and cited[3] == "Tim report"


async def test_a_budget_of_zero_primes_on_the_extracts_and_says_so(tmp_path: Path) -> None:
    # No rule answers a report prompt: writing one would fail the test.
    services = lazy_services(tmp_path, [
        (PRIMER, primer_reply(60)), (FOLLOW_UP, follow_up_reply),
        (REDUCE, "Scrooge scolds Bob [Data: Reports (1)]."),
    ])
    query = make_query(services.settings, QUESTION, lazy_report_budget=0,
                       drift={"depth": 1})
    answer = await run_query(services, drift_over(services), query)
    assert report_writes(services) == [] and services.store.writes == []
    assert "# Scrooge and Marley" in primer_prompt(services)
    assert answer.notes[0].text == extractive_note(
        [NEAREST[0], NEAREST[2], NEAREST[3]], "search.lazy_report_budget is 0")
    assert answer.notes[0].text.startswith("The primer read 3 extractive community summaries")
    assert answer.text == "Scrooge scolds Bob [Data: Reports (1)]." and answer.method == "drift"
    assert answer.sources["Reports"][0]["title"] == "Scrooge and Marley"


async def test_retrieval_only_writes_no_report_and_reads_the_extracts(tmp_path: Path) -> None:
    services = lazy_services(tmp_path, [(PRIMER, primer_reply(60)), (FOLLOW_UP, follow_up_reply)])
    query = make_query(services.settings, QUESTION, lazy_report_budget=3,
                       drift={"depth": 1, "k_followups": 1})
    context = await retrieve_only(services, "drift", drift_over(services), query)
    assert services.store.writes == [] and "community reports" not in services.llm.usage.stages()
    assert context.llm_calls == 2  # the primer and one follow-up, no report
    assert context.note_texts() == [extractive_note(
        [NEAREST[0], NEAREST[2], NEAREST[3]], "retrieval only writes no reports")]


async def test_communities_built_without_reports_prime_on_their_extracts(tmp_path: Path) -> None:
    nearest = [{**extract("k1", "Scrooge and Marley", mode="none"), "score": 0.9}]
    services = lazy_services(tmp_path, [
        (PRIMER, primer_reply(60)), (FOLLOW_UP, follow_up_reply),
        (REDUCE, "Scrooge [Data: Reports (1)].")], nearest=nearest)
    answer = await run_query(services, drift_over(services),
                             make_query(services.settings, QUESTION,
                                        drift={"depth": 1}))
    assert services.store.writes == []
    assert answer.notes[0].text == extractive_note(
        nearest, "their communities were built with `--reports none` or are smaller than"
        " communities.min_report_size")


def test_the_note_counts_summaries() -> None:
    one = extractive_note([NEAREST[0]], "why")
    assert one.startswith("The primer read 1 extractive community summary (")
    assert one.endswith(": why.")
