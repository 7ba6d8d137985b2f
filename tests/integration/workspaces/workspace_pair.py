"""Two workspaces indexed from one path, a Scrooge in each with other facts (fast method)."""

from __future__ import annotations

from pathlib import Path

from langchain_core.language_models import BaseChatModel

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import Settings
from tests.integration.text_files import write_texts

TEXTS = {
    "alpha": ("Ebenezer Scrooge kept a counting-house in London. Scrooge paid Bob Cratchit"
              " fifteen shillings a week. Scrooge and Bob Cratchit worked late on Christmas Eve."),
    "beta": ("Ebenezer Scrooge swam in a money bin in Duckburg. Scrooge gave Donald Duck a dime"
             " a day. Scrooge and Donald Duck sailed to Klondike for gold."),
}
OWN_WORD = {"alpha": "London", "beta": "Duckburg"}
NAMED = ("alpha", "beta")


def workspace_rag(settings: Settings, root: Path, workspace: str,
                  llm: BaseChatModel | None = None) -> GraphRAG:
    """An engine of `workspace` with fast extraction and fake models."""
    extraction = settings.extraction.model_copy(update={"method": "fast"})
    tuned = settings.model_copy(update={"cache_dir": root / "cache", "extraction": extraction})
    return GraphRAG(tuned, llm=llm or FakeChatModel(rules=[("", "Scrooge.")]),
                    embeddings=FakeEmbeddings(), workspace=workspace)


def index_pair(settings: Settings, root: Path) -> None:
    """Index alpha's and beta's carol.txt (one path: one document id) with communities."""
    for name in NAMED:
        with workspace_rag(settings, root, name) as rag:
            (path,) = write_texts(root / "docs", carol=TEXTS[name])
            rag.index([path])
            rag.build_communities(reports="none")
