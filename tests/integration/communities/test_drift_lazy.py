"""DRIFT on the nano graph built with lazy reports: extracts, lazy writes, reuse, notes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.query.answers.evidence import evidence_params
from graphrag_neo4j.settings import Settings
from tests.integration.communities.test_communities import reports
from tests.integration.communities.test_drift_search import QUESTION, follow_up
from tests.integration.communities.test_global_search import fake_report
from tests.integration.communities.test_lazy_reports import MAP_PROMPT, fake_map
from tests.integration.communities.test_lazy_reports import REDUCE_PROMPT as GLOBAL_REDUCE_PROMPT
from tests.nano_fakes import load_nano, nano_fake_llm, write_nano_passages

pytestmark = pytest.mark.integration
REPORT_PROMPT = "briefing reports on communities"
PRIMER_PROMPT = "You start a search through a collection"
REDUCE_PROMPT = "A search first read community reports"


def primer(prompt: str) -> str:
    """Any reports or extracts help (the test is about which ones the primer reads)."""
    return json.dumps({"answer": "The Bernoullis were mathematicians.", "score": 70,
                       "follow_ups": ["Who is Daniel Bernoulli?"]})


@pytest.fixture
def lazy_rag(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path
) -> Iterator[GraphRAG]:
    """The nano graph, communities built with lazy reports; no LLM response cache, so every
    call the engine makes reaches the fake model."""
    dataset = load_nano(nano_root)
    docs = tmp_path / "docs"
    write_nano_passages(dataset, docs)
    llm = nano_fake_llm(dataset, extra=[
        (REPORT_PROMPT, fake_report), (PRIMER_PROMPT, primer),
        ("answering one follow-up", follow_up),
        (REDUCE_PROMPT, "Daniel studied fluid flow [Data: Reports (1, 2); Sources (1)]."),
        (MAP_PROMPT, fake_map), (GLOBAL_REDUCE_PROMPT, "The Bernoullis [Data: Reports (1)]."),
    ])
    tuned = settings.model_copy(update={
        "cache_dir": tmp_path / "cache",
        "llm": settings.llm.model_copy(update={"cache": False}),
        # Every community may get a lazy report here, the smallest too: the budget decides.
        "communities": settings.communities.model_copy(update={"max_cluster_size": 4,
                                                               "min_report_size": 1}),
        # The ceiling of the budgets the tests give per query.
        "search": settings.search.model_copy(update={"lazy_report_budget": 100}),
    })
    with GraphRAG(tuned, llm=llm, embeddings=FakeEmbeddings()) as rag:
        rag.index([docs])
        assert rag.build_communities(reports="lazy").report_mode == "lazy"
        assert len(reports(store)) >= 5 and not written(store)
        yield rag


def prompts(rag: GraphRAG, marker: str) -> list[str]:
    model: FakeChatModel = rag.llm.chat_model  # type: ignore[assignment]
    return [call.prompt for call in model.calls if marker in call.prompt]


def written(store: Store) -> dict[str, dict[str, Any]]:
    return {cid: row for cid, row in reports(store).items()
            if row["report_status"] != "extractive"}


def test_drift_writes_lazy_reports_within_the_budget_cites_and_reuses_them(
    lazy_rag: GraphRAG, store: Store
) -> None:
    rag = lazy_rag
    options: dict[str, Any] = {"drift.depth": 1, "drift.k_followups": 1}
    retrieved = rag.retrieve(QUESTION, method="drift", lazy_report_budget=2, **options)
    assert not written(store) and not prompts(rag, REPORT_PROMPT)
    assert retrieved.llm_calls == 2  # the primer and one follow-up
    assert "retrieval only writes no reports" in retrieved.notes[0].text

    extracts = rag.query(QUESTION, method="drift", lazy_report_budget=0, **options)
    assert not written(store) and not prompts(rag, REPORT_PROMPT)
    assert extracts.notes[0].text.startswith("The primer read 5 extractive community summaries")
    assert extracts.notes[0].text.endswith("search.lazy_report_budget is 0.")
    assert extracts.text.startswith("Daniel studied fluid flow [Data: Reports (1, 2)")

    first = rag.query(QUESTION, method="drift", lazy_report_budget=2,
                      **{**options, "drift.primer_k": 3})
    new = written(store)
    assert len(new) == 2 == len(prompts(rag, REPORT_PROMPT))
    assert all(row["report_status"] == "ok" and row["embedded"] for row in new.values())
    assert first.note_texts()[:2] == [
        "Wrote 2 community reports for this question; 0 reused.",
        "The primer read 1 extractive community summary (title and summary, no LLM report)"
        " in place of reports: search.lazy_report_budget (2) went to nearer communities.",
    ]
    (primer_prompt,) = prompts(rag, PRIMER_PROMPT)[-1:]
    assert all(row["title"] in primer_prompt for row in new.values())
    cited = {row["ref"]: row["id"] for row in first.sources["Reports"]}
    assert "[Data: Reports (1, 2)" in first.text and {cited[1], cited[2]} == set(new)
    assert set(new) <= set(evidence_params(first)["community_ids"])

    second = rag.query(QUESTION, method="drift", lazy_report_budget=2,
                       **{**options, "drift.primer_k": 2})
    assert len(prompts(rag, REPORT_PROMPT)) == 2 and written(store) == new
    assert not any("extractive" in note or "Wrote" in note for note in second.note_texts())
    assert {row["id"] for row in second.sources["Reports"][:2]} == set(new)

    # Global search over a level holding DRIFT's reports writes only the others.
    level = min(row["level"] for row in new.values())
    at_level = [row for row in reports(store).values() if row["level"] == level]
    reused = [cid for cid, row in new.items() if row["level"] == level]
    overall = rag.query(QUESTION, method="global", level=level, lazy_report_budget=len(at_level))
    assert len(prompts(rag, REPORT_PROMPT)) == 2 + len(at_level) - len(reused)
    assert overall.selection is not None and overall.selection.reports_reused == len(reused)
    assert all(written(store)[cid] == new[cid] for cid in reused)
