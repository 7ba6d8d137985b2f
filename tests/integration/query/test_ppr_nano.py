"""PPR and local search on the Milvus nano triplets: passages found through the graph."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.hops.search import HopsSearch
from graphrag_neo4j.query.local.search import LocalSearch
from graphrag_neo4j.query.ppr.search import PprSearch
from graphrag_neo4j.query.retrieval.naive import NaiveSearch
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration
QUESTION = "What contribution did the son of Euler's teacher make?"
EULER, JAKOB, JOHANN, DANIEL = (f"nano_dataset-{i}" for i in (3, 0, 1, 2))


@pytest.fixture(scope="module")
def embeddings() -> MiniLMEmbeddings:
    return MiniLMEmbeddings()  # ranks by meaning, as the notebook's embeddings do


@pytest.fixture
def rag(
    store: Store, settings: Settings, nano_root: Path, tmp_path: Path,
    embeddings: MiniLMEmbeddings,
) -> Iterator[GraphRAG]:
    llm = FakeChatModel(rules=[("-----Question-----", "Daniel Bernoulli [Data: Sources (1)].")])
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    with GraphRAG(tuned, llm=llm, embeddings=embeddings) as engine:
        engine.index_triplets(nano_root / "milvus_nano" / "nano_dataset.json")
        yield engine


@pytest.mark.xfail(strict=True, reason=(
    "Not reached (issue 55): MiniLM puts 'Daniel Bernoulli was the son of Johann Bernoulli'"
    " 12th of the 22 facts nearest the question, so no seed carries it; and even with the"
    " notebook's two chosen facts as the only fact seeds (HippoRAG 2's filtered facts), the"
    " walk ranks Johann's passage, the hub both facts name, second and Daniel's third at"
    " best (fourth at the default shares)."))
async def test_the_son_reached_through_the_teacher_ranks_above_the_brother(rag: GraphRAG) -> None:
    # Daniel's passage shares few words with the question; it is reached through Johann, the
    # bridge the question does not name. Naive ranks Jakob's (Bernoulli, contributions) above it.
    only_vectors = {"hybrid": {"enabled": False}}
    naive = await NaiveSearch(rag).rank_documents(make_query(rag.settings, QUESTION,
                                                             **only_vectors), 4)
    walked = await PprSearch(rag).rank_documents(make_query(rag.settings, QUESTION,
                                                            **only_vectors), 4)
    assert naive.index(JAKOB) < naive.index(DANIEL)
    assert walked.index(DANIEL) < walked.index(JAKOB)
    assert walked[:2] == [EULER, DANIEL]


async def test_seeds_and_damping_are_honoured(rag: GraphRAG) -> None:
    search = PprSearch(rag)
    # Seeded by Jakob's passage alone (no entity seeds), the walk keeps Jakob's passage first.
    jakob_only = make_query(rag.settings, "Jakob Bernoulli", ppr={
        "entity_top_k": 0, "fact_top_k": 0, "named_per_mention": 0, "seed_passages": 1})
    assert (await search.rank_documents(jakob_only, 4))[0] == JAKOB
    context = await search.build_context(jakob_only)
    assert [row["kind"] for row in context.sources["Seeds"]] == ["passage"]
    # A walk that barely moves ranks as its seeds; the passages it reaches still follow.
    still = await search.rank_documents(make_query(rag.settings, QUESTION,
                                                   ppr={"damping": 0.01}), 4)
    assert still[0] in {EULER, DANIEL} and len(still) == 4


async def test_local_ranks_passages_as_hops_does_without_its_rerank(rag: GraphRAG) -> None:
    # Jakob's passage states the fact asked for ("Jakob Bernoulli was the older brother of
    # Johann Bernoulli"); the walk puts Johann's first, the passage about the entity named.
    question = "Who was the older brother of Johann Bernoulli?"
    query = make_query(rag.settings, question, local={"top_chunks": 2})
    no_llm = query.with_search(hops={"rerank": False, "follow_up": False})
    hops = await HopsSearch(rag).rank_documents(no_llm, 2)
    walked = await PprSearch(rag).rank_documents(query, 2)
    calls = len(rag.llm.chat_model.calls)  # type: ignore[attr-defined]
    # Local makes no model call, whatever hops' own calls are set to.
    with_calls = query.with_search(hops={"rerank": True, "follow_up": True})
    local = await LocalSearch(rag).build_context(with_calls)
    assert walked[0] == JOHANN and hops[0] == JAKOB
    assert local.ranked_document_ids == hops
    assert len(rag.llm.chat_model.calls) == calls  # type: ignore[attr-defined]


@pytest.mark.parametrize("method", ["naive", "local", "ppr"])
async def test_retrieve_only_shows_the_context_the_answer_reads(
    rag: GraphRAG, method: str
) -> None:
    answer = await rag.aquery(QUESTION, method)
    retrieved = await rag.aretrieve(QUESTION, method)
    assert answer.text and not retrieved.text
    assert retrieved.context == answer.context != ""
    assert retrieved.sources == answer.sources
