"""DRIFT on the nano graph with fake reports: local fallback before communities, then the run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.query.answers.evidence import evidence_params
from graphrag_neo4j.query.drift.search import NO_REPORTS, NOTHING_PRIMED
from graphrag_neo4j.settings import Settings
from tests.integration.communities.test_global_search import fake_report
from tests.nano_fakes import load_nano, nano_fake_llm, write_nano_passages

pytestmark = pytest.mark.integration
QUESTION = "What did Daniel Bernoulli study?"
_FOLLOW_UP = re.compile(r"-----Follow-up question-----\n(.*)\n")


def primer(prompt: str) -> str:
    """Relevant when the reports name Daniel and the question is not about football."""
    relevant = "Daniel" in prompt and "football" not in prompt
    return json.dumps({"answer": "The Bernoullis were mathematicians.",
                       "score": 70 if relevant else 0,
                       "follow_ups": ["Who is Daniel Bernoulli?", "who is daniel bernoulli",
                                      "Who taught Leonhard Euler?"]})


def follow_up(prompt: str) -> str:
    asked = _FOLLOW_UP.search(prompt)
    assert asked is not None
    score = 80 if "Daniel" in prompt.split("-----Data tables-----")[1] else 5
    return json.dumps({"answer": f"Found about {asked.group(1)}", "score": score,
                       "follow_ups": ["Where did Daniel Bernoulli live?"]})


def _calls(llm: FakeChatModel, marker: str) -> list[str]:
    return [call.prompt for call in llm.calls if marker in call.prompt]


def test_drift_falls_back_without_reports_then_runs_within_its_budgets(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path
) -> None:
    dataset = load_nano(nano_root)
    docs = tmp_path / "docs"
    write_nano_passages(dataset, docs)
    llm = nano_fake_llm(dataset, extra=[
        ("briefing reports on communities", fake_report),
        ("You start a search through a collection", primer),
        ("answering one follow-up", follow_up),
        ("A search first read community reports",
         "Daniel studied fluid flow [Data: Reports (1); Entities (1); Sources (1, 99)]."),
        ("graph search found", "I do not know."),
    ])
    tuned = settings.model_copy(update={
        "cache_dir": tmp_path / "cache",
        "communities": settings.communities.model_copy(update={"max_cluster_size": 4}),
    })
    with GraphRAG(tuned, llm=llm, embeddings=FakeEmbeddings()) as rag:
        rag.index([docs])
        before = rag.query(QUESTION, method="drift")
        assert before.notes[0].text == NO_REPORTS and before.text == "I do not know."

        rag.build_communities()
        answer = rag.query(QUESTION, method="drift", drift={"k_followups": 2, "depth": 2})
        asked = [_FOLLOW_UP.findall(p)[0] for p in _calls(llm, "answering one follow-up")]
        # Round one answers the primer's two distinct follow-ups concurrently, round two the one
        # new follow-up both raised: three local calls, within the budget of 2 x 2.
        assert sorted(asked[:2]) == ["Who is Daniel Bernoulli?", "Who taught Leonhard Euler?"]
        assert asked[2:] == ["Where did Daniel Bernoulli live?"]
        assert len(_calls(llm, "You start a search")) == 1
        assert answer.text == (
            "Daniel studied fluid flow [Data: Reports (1); Entities (1); Sources (1)].")
        params = evidence_params(answer)
        assert params["community_ids"] and params["entity_ids"] and params["chunk_ids"]
        stored = rag.store.read("query/chunks_by_ids", ids=params["chunk_ids"])
        assert len(stored) == len(params["chunk_ids"])
        # Retrieval only shows the context the answer read (the same primer and follow-ups).
        retrieved = rag.retrieve(QUESTION, method="drift", drift={"k_followups": 2, "depth": 2})
        assert not retrieved.text and retrieved.context == answer.context != ""

        football = rag.query("Who won the 1998 football world cup?", method="drift")
        assert football.notes[0].text == NOTHING_PRIMED
        assert rag.query_method("drift").needs_llm

