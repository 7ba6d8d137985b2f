"""Communities without an LLM at build time: extractive summaries, then lazy global reports."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.settings import Settings
from tests.integration.communities.test_communities import (
    REPORT_PROMPT,
    fake_llm,
    fixed_passages,
    index_fixed_graph,
    make_rag,
    reports,
    write_jsonl,
)

pytestmark = pytest.mark.integration
MAP_PROMPT = "Find what in these reports helps"
REDUCE_PROMPT = "Several analysts"
QUESTION = "How do the Alpha members meet the others?"
_ROW = re.compile(r"^(\d+)\|([^|]*)\|", re.MULTILINE)


def fake_map(prompt: str) -> str:
    """A point citing every report row of the batch by its number."""
    refs = [number for number, _title in _ROW.findall(prompt.split("-----Reports-----")[1])]
    return json.dumps({"points": [{"description": f"They meet. [Data: Reports ({', '.join(refs)})]",
                                   "score": 70}]})


def lazy_llm() -> FakeChatModel:
    model = fake_llm()
    model.rules = [*model.rules, (MAP_PROMPT, fake_map),
                   (REDUCE_PROMPT, "Alpha meets Beta and Gamma [Data: Reports (1, 2)].")]
    return model


@pytest.fixture
def lazy_rag(store: Store, settings: Settings, tmp_path: Path) -> Iterator[GraphRAG]:
    """The fixed graph from triplets only (no LLM extraction), communities built by default;
    no LLM response cache, so every call the engine makes reaches the fake model."""
    uncached = settings.model_copy(update={"llm": settings.llm.model_copy(update={"cache": False})})
    with make_rag(uncached, tmp_path, lazy_llm()) as rag:
        rag.index_triplets(write_jsonl(tmp_path / "corpus.jsonl", fixed_passages()))
        stats = rag.build_communities()
        assert stats.report_mode == "lazy" and stats.communities == 30
        yield rag


def prompts(rag: GraphRAG, marker: str) -> list[str]:
    model: FakeChatModel = rag.llm.chat_model  # type: ignore[assignment]
    return [call.prompt for call in model.calls if marker in call.prompt]


def assert_all_extractive(store: Store) -> None:
    rows = reports(store)
    assert len(rows) == 30
    for row in rows.values():
        assert row["report_status"] == "extractive" and row["embedded"]
        assert " and " in row["title"] and "member" in row["title"]
        assert "knows" in row["summary"] or "meets" in row["summary"]
        assert row["full_content"].startswith(f"# {row['title']}")


def test_a_graph_without_llm_extraction_gets_extracts_and_no_llm_call(
    lazy_rag: GraphRAG, store: Store
) -> None:
    assert_all_extractive(store)
    assert prompts(lazy_rag, "") == []
    overview = lazy_rag.communities()
    assert sum(level["extractive"] for level in overview.levels) == 30
    assert sum(level["reports"] for level in overview.levels) == 0
    again = lazy_rag.build_communities(reports="none")
    assert again.extracts_written == 0 and again.extracts_unchanged == 30
    assert prompts(lazy_rag, "") == []
    modes = store.read("query/communities/community_reports_at_level", level=0)
    assert {row["report_mode"] for row in modes} == {"none"}


def test_a_lazy_report_is_written_once_and_reused(lazy_rag: GraphRAG, store: Store) -> None:
    assert lazy_rag.written_reports() == 0  # extractive summaries only
    first = lazy_rag.query(QUESTION, method="global", level=0, lazy_report_budget=3)
    assert lazy_rag.written_reports() == 3
    written = [r for r in reports(store).values() if r["report_status"] != "extractive"]
    assert first.selection is not None and first.selection.reports_written == 3
    assert len(written) == 3 == len(prompts(lazy_rag, REPORT_PROMPT))
    for row in written:
        assert row["report_status"] == "ok" and row["rank"] == 6.5 and row["content_hash"]
        assert row["embedded"] and len(json.loads(row["findings"])) == 5
        assert row["title"].startswith("Community of")
    # The written ones first (the nearest), then the rest of the level by its extracts.
    shown = first.sources["Reports"]
    assert {r["id"] for r in shown[:3]} == {r["id"] for r in written}
    assert f"Read {len(shown)} of level 0's {len(shown)} communities, 100% of its" in (
        " ".join(first.note_texts())) and len(shown) > 3
    assert "Wrote 3 community reports for this question; 0 reused." in first.note_texts()
    (map_prompt,) = prompts(lazy_rag, MAP_PROMPT)
    assert all(f"|{row['title']}|" in map_prompt for row in written)
    assert "[Data: Reports (" in first.text and first.llm_calls == 3 + 1 + 1

    second = lazy_rag.query(QUESTION, method="global", level=0, lazy_report_budget=3)
    assert second.selection is not None and second.selection.reports_written == 0
    assert "Wrote 0 community reports for this question; 3 reused." in second.note_texts()
    assert len(prompts(lazy_rag, REPORT_PROMPT)) == 3
    assert len(prompts(lazy_rag, MAP_PROMPT)) == len(prompts(lazy_rag, REDUCE_PROMPT)) == 2
    assert second.llm_calls == 2  # one map call and the reduce call only

    rebuilt = lazy_rag.build_communities()
    assert rebuilt.llm_reports_kept == 3 and rebuilt.extracts_unchanged == 27
    assert len([r for r in reports(store).values() if r["report_status"] == "ok"]) == 3


def test_retrieve_only_reads_extracts_and_writes_nothing(
    lazy_rag: GraphRAG, store: Store
) -> None:
    context = lazy_rag.retrieve(QUESTION, method="global", level=0, lazy_report_budget=4)
    # The whole level is read (issue 58): 4 nearest, then the rest, all by extracts.
    read = len(context.sources["Reports"])
    assert context.llm_calls == 0 and read > 4
    read_note = f"Read {read} of level 0's {read} communities, 100% of its"
    assert read_note in " ".join(context.note_texts())
    assert all(r["report_status"] == "extractive" for r in context.sources["Reports"])
    assert all(r["report_status"] == "extractive" for r in reports(store).values())
    local = lazy_rag.retrieve("Alpha member 0", method="local")
    # Local search shows LLM reports only: an extractive summary repeats its passages' sentences
    # out of context, so it is left out and its share of the budget goes to the passages.
    assert local.sources["Sources"] and local.sources["Reports"] == []


def test_reports_all_writes_every_report_over_the_extracts(
    lazy_rag: GraphRAG, store: Store
) -> None:
    stats = lazy_rag.build_communities(reports="all")
    rows = reports(store).values()
    assert stats.reports_generated == 30 and stats.report_mode == "all"
    assert {r["report_status"] for r in rows} == {"ok", "fallback"}
    again = lazy_rag.build_communities(reports="all")
    # Without a response cache the broken community's fallback is asked for again.
    assert again.reports_reused == 29 and again.reports_generated == again.reports_fallback == 1
    assert again.llm_reports_kept == 30 and again.extracts_written == 0


def test_the_default_follows_the_documents_extraction_method(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    with make_rag(settings, tmp_path, lazy_llm()) as rag:
        rag.index_triplets(write_jsonl(tmp_path / "corpus.jsonl", fixed_passages()))
        methods = {d["extraction_method"] for d in documents(store)}
        assert methods == {"triplets"} and rag.build_communities().report_mode == "lazy"
        index_fixed_graph(rag, tmp_path)  # adds one document extracted by the LLM
        assert "llm" in {d["extraction_method"] for d in documents(store)}
        assert rag.build_communities().report_mode == "all"


def documents(store: Store) -> list[dict[str, Any]]:
    return store.read("indexing/documents/list_documents", skip=0, limit=100)
