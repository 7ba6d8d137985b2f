"""Local search on the nano graph: the retrieval query's contract and the context it builds."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeEmbeddings
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.local.search import LocalSearch, retrieval_params
from graphrag_neo4j.settings import Settings
from tests.nano_fakes import load_nano, nano_fake_llm, write_nano_passages

pytestmark = pytest.mark.integration
QUESTION = "What contribution did the son of Euler's teacher make?"


@pytest.fixture
def nano_rag(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path
) -> Any:
    dataset = load_nano(nano_root)
    docs = tmp_path / "docs"
    write_nano_passages(dataset, docs)
    llm = nano_fake_llm(
        dataset, extra=[("-----Question-----", "Daniel Bernoulli [Data: Entities (1)].")]
    )
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    with GraphRAG(tuned, llm=llm, embeddings=FakeEmbeddings()) as rag:
        rag.index([docs])
        yield rag


def test_retrieval_statement_returns_one_row_with_every_table(nano_rag: GraphRAG) -> None:
    vector = asyncio.run(nano_rag.embedder.embed_query(QUESTION))
    base = nano_rag.settings.search
    search = base.model_copy(update={"local": base.local.model_copy(update={"top_k_entities": 5})})
    rows = nano_rag.store.read("query/local_retrieval", **retrieval_params(search, vector))
    assert len(rows) == 1
    text, score, metadata = rows[0]["text"], rows[0]["score"], rows[0]["metadata"]
    assert isinstance(text, str) and text
    entity_scores = [e["score"] for e in metadata["entities"]]
    assert len(entity_scores) == 5
    assert entity_scores == sorted(entity_scores, reverse=True)
    assert score == pytest.approx(entity_scores[0]) and 0 < score < 1.0
    assert set(metadata) == {"entities", "chunks", "reports", "inside_rels", "outside_rels"}


def test_retrieval_statement_text_is_never_null_on_an_empty_graph(
    nano_rag: GraphRAG, store: Store
) -> None:
    vector = asyncio.run(nano_rag.embedder.embed_query(QUESTION))
    store.run_autocommit("database/delete_all")
    rows = store.read("query/local_retrieval", **retrieval_params(nano_rag.settings.search, vector))
    assert [(row["text"], row["score"]) for row in rows] == [("", 0.0)]
    context = asyncio.run(LocalSearch(nano_rag).build_context(
        make_query(nano_rag.settings, QUESTION)))
    assert context.sources == {"Entities": [], "Relationships": [], "Reports": [], "Sources": []}


def test_local_context_has_daniel_passage_and_johann_euler_relation(nano_rag: GraphRAG) -> None:
    context = nano_rag.retrieve(QUESTION, "local")
    sources = [row["text"] for row in context.sources["Sources"]]
    assert any(text.startswith("Daniel Bernoulli (1700") for text in sources)
    relations = {(r["source"], r["predicate"], r["target"])
                 for r in context.sources["Relationships"]}
    assert ("Leonhard Euler", "was a student of", "Johann Bernoulli") in relations
    assert "-----Entities-----" in context.context and "-----Sources-----" in context.context


def test_local_answer_cites_and_reports_cost(nano_rag: GraphRAG) -> None:
    answer = nano_rag.query(QUESTION, method="local", response_type="Single Sentence")
    assert answer.method == "local" and answer.text.startswith("Daniel Bernoulli")
    assert answer.llm_calls == 1 and answer.prompt_tokens > 0
    prompt = nano_rag.llm.chat_model.calls[-1].prompt  # type: ignore[attr-defined]
    assert "Single Sentence" in prompt and QUESTION in prompt
    assert "Daniel Bernoulli (1700" in prompt


def test_per_query_budgets_shrink_the_context(nano_rag: GraphRAG) -> None:
    small = nano_rag.retrieve(QUESTION, "local", hybrid={"enabled": False},
                              local={"top_chunks": 1, "top_k_entities": 2, "seeds_per_mention": 0,
                                     "passage_entities": 0})
    assert len(small.sources["Sources"]) == 1
    assert len(small.sources["Entities"]) == 2


def test_entities_of_the_best_passage_join_the_found_ones(nano_rag: GraphRAG) -> None:
    narrow = {"top_chunks": 1, "top_k_entities": 1, "seeds_per_mention": 0}
    alone = nano_rag.retrieve(QUESTION, "local", hybrid={"enabled": False},
                              local={**narrow, "passage_entities": 0})
    joined = nano_rag.retrieve(QUESTION, "local", hybrid={"enabled": False},
                               local={**narrow, "passage_entities": 3})
    assert len(alone.sources["Entities"]) == 1
    assert 1 < len(joined.sources["Entities"]) <= 4
    # the passages are ranked as before: the added entities only describe them
    assert joined.sources["Sources"] == alone.sources["Sources"]


def test_grounding_looks_names_up_in_the_graph(nano_rag: GraphRAG) -> None:
    # By normalised name (case, punctuation): what global answers are checked against.
    found = nano_rag.entity_names_in_graph(["leonhard  EULER", "Oliver Twist"])
    assert found == {"leonhard  EULER"}
    assert nano_rag.entity_names_in_graph([]) == set()
