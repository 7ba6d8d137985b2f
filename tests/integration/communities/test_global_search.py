"""Global search on the nano graph with fake reports: map per batch, reduce non-zero points."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.query.global_search.search import NOTHING_RELEVANT
from graphrag_neo4j.settings import Settings
from tests.nano_fakes import load_nano, nano_fake_llm, write_nano_passages

pytestmark = pytest.mark.integration
QUESTION = "What did the Bernoulli family contribute to science?"
_ROW = re.compile(r"^(\d+)\|([^|]*)\|")


def fake_report(prompt: str) -> str:
    """A report titled after the first entity row of its community."""
    names = re.findall(r"^[0-9a-f]{16}\|([^|]+)\|", prompt, flags=re.MULTILINE)
    title = " & ".join(names[:2]) or "Community"
    finding = {"summary": f"{title} matters", "explanation": "Because the tables say so."}
    return json.dumps({
        "title": title, "summary": f"About {', '.join(names)}.", "rating": 6.0,
        "rating_explanation": "Central.", "findings": [finding] * 5,
    })


def fake_map(prompt: str) -> str:
    """Score 80 for every report naming Daniel, 0 for the rest (all 0 for football)."""
    points = []
    for line in prompt.splitlines():
        match = _ROW.match(line)
        if match:
            relevant = "Daniel" in line and "football" not in prompt
            points.append({
                "description": f"Report {match.group(1)} on {match.group(2)}"
                f" [Data: Reports ({match.group(1)})]",
                "score": 80 if relevant else 0,
            })
    return json.dumps({"points": points})


@pytest.fixture
def rag(store: Store, settings: Settings, nano_root: Path, tmp_path: Path) -> Iterator[GraphRAG]:
    dataset = load_nano(nano_root)
    docs = tmp_path / "docs"
    write_nano_passages(dataset, docs)
    llm = nano_fake_llm(dataset, extra=[
        ("briefing reports on communities", fake_report),
        ("Find what in these reports helps", fake_map),
        ("Several analysts", "The Bernoullis shaped calculus [Data: Reports (1)]."),
        ("Rate how useful this community report", _rate),
    ])
    tuned = settings.model_copy(update={
        "cache_dir": tmp_path / "cache",
        "communities": settings.communities.model_copy(update={"max_cluster_size": 4}),
    })
    with GraphRAG(tuned, llm=llm, embeddings=FakeEmbeddings()) as engine:
        engine.index([docs])
        engine.build_communities()
        yield engine


def _rate(prompt: str) -> str:
    return json.dumps({"rating": 9 if "Daniel" in prompt else 1})


def _calls(rag: GraphRAG, marker: str) -> list[Any]:
    model: FakeChatModel = rag.llm.chat_model  # type: ignore[assignment]
    return [call for call in model.calls if marker in call.prompt]


def test_one_map_call_per_batch_and_only_nonzero_points_reduced(rag: GraphRAG) -> None:
    answer = rag.query(QUESTION, method="global", **{"global.map_batch_tokens": 120})
    selection = answer.selection
    maps = _calls(rag, "Find what in these reports helps")
    assert selection is not None and selection.map_calls == len(maps) > 1
    (reduce_call,) = _calls(rag, "Several analysts")
    assert "Importance: 80" in reduce_call.prompt
    assert "Importance: 0" not in reduce_call.prompt
    assert answer.text.startswith("The Bernoullis") and answer.llm_calls == len(maps) + 1


def test_nothing_relevant_is_said_plainly_without_a_reduce_call(rag: GraphRAG) -> None:
    answer = rag.query("Who won the 1998 football world cup?", method="global")
    assert answer.text == NOTHING_RELEVANT
    assert not _calls(rag, "Several analysts")
    assert answer.llm_calls == len(_calls(rag, "Find what in these reports helps")) > 0


def test_dynamic_selection_maps_only_relevant_reports(rag: GraphRAG) -> None:
    answer = rag.query(QUESTION, method="global",
                       global_={"dynamic_selection": True, "map_batch_tokens": 120})
    selection = answer.selection
    assert selection is not None and selection.rating_calls > 0
    assert all("Daniel" in r["full_content"] for r in answer.sources["Reports"])
    assert selection.map_calls_saved >= 0


def test_retrieve_only_shows_the_context_the_answer_reads(rag: GraphRAG) -> None:
    answer = rag.query(QUESTION, method="global")
    retrieved = rag.retrieve(QUESTION, method="global")
    assert answer.text and not retrieved.text
    # The answer's context is the map's points (model-written); the reports it mapped are its
    # evidence, and they are what retrieval only shows.
    assert retrieved.context == answer.evidence != ""
    assert retrieved.sources["Reports"] == answer.sources["Reports"]
