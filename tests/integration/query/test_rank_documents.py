"""Each method ranks k documents when a document holds several of the nearest passages."""

from __future__ import annotations

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

QUESTION = "How do I delete a git branch?"
# A manual page split into many passages, each nearer the question than the other pages.
BRANCH_PAGE = " ".join(
    f"To delete the git branch topic{i}, run git branch -d topic{i} in the repository."
    for i in range(12)
)
OTHER_PAGES = {
    "tag.txt": "Git Tag creates, lists and deletes tags in the repository.",
    "remote.txt": "Git Remote manages the set of tracked repositories and their branches.",
    "stash.txt": "Git Stash saves local changes away and reverts the working directory.",
}


def _indexed(settings: Settings, tmp_path: Path) -> GraphRAG:
    chunking = settings.chunking.model_copy(update={"size": 40, "overlap": 0})
    extraction = settings.extraction.model_copy(update={"method": "fast"})
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache", "chunking": chunking,
                                        "extraction": extraction})
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "branch.txt").write_text(BRANCH_PAGE, encoding="utf-8")
    for name, text in OTHER_PAGES.items():
        (pages / name).write_text(text, encoding="utf-8")
    rag = GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=MiniLMEmbeddings())
    stats, _ = rag.index([pages], method="fast")
    assert stats.documents == 4 and stats.chunks > 6  # the branch page really was split
    return rag


async def test_every_ranking_method_fills_k_documents(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    with _indexed(settings, tmp_path) as rag:
        branch = store.read("evaluation/gold_documents", refs=["branch.txt"])[0]["by_source"][0]
        for method in (NaiveSearch(rag), PprSearch(rag), LocalSearch(rag), HopsSearch(rag)):
            query = make_query(rag.settings, QUESTION, hops={"follow_up": False})
            ranked = await method.rank_documents(query, 3)
            assert len(ranked) == len(set(ranked)) == 3, method.name
            assert ranked[0] == branch, method.name
