"""A LangChain retriever over any query method in retrieve-only mode: passages as Documents
with where they came from (document, file, page or section, chunk, score, method)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from graphrag_neo4j.citations import PLACE_KEYS
from graphrag_neo4j.query.answers.source_places import SOURCES, chunk_id
from graphrag_neo4j.query.base import Answer


@runtime_checkable
class Retrieves(Protocol):
    """What the retriever needs of `GraphRAG`: its retrieve-only calls."""

    def retrieve(self, question: str, method: str | None = None, **options: Any) -> Answer:
        """The context `method` would answer from, without the answer call."""
        ...

    async def aretrieve(
        self, question: str, method: str | None = None, **options: Any
    ) -> Answer:
        """Async version of `retrieve`."""
        ...


class GraphRAGRetriever(BaseRetriever):
    """Passages a query method would answer from, as LangChain Documents.

        retriever = GraphRAGRetriever(rag=GraphRAG(), method="hops", k=5)
        docs = retriever.invoke("Who founded the company?")

    `k` keeps the first k passages (None: all the method's context holds); `options` are the
    query options of `GraphRAG.aretrieve` (per-query search settings).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    rag: Retrieves
    method: str | None = None
    k: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun,  # noqa: ARG002
        **kwargs: Any,  # LangChain's signature: the run manager is unused, `k` may come here
    ) -> list[Document]:
        answer = self.rag.retrieve(query, self.method, **self.options)
        return passages_as_documents(answer, kwargs.get("k", self.k))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun,  # noqa: ARG002
        **kwargs: Any,
    ) -> list[Document]:
        answer = await self.rag.aretrieve(query, self.method, **self.options)
        return passages_as_documents(answer, kwargs.get("k", self.k))


def passages_as_documents(answer: Answer, k: int | None = None) -> list[Document]:
    """The answer's Sources rows, in order, as Documents (the first `k` when given)."""
    rows = answer.sources.get(SOURCES) or []
    documents = []
    for rank, row in enumerate(rows[:k] if k is not None else rows, start=1):
        metadata = {key: row.get(key) for key in PLACE_KEYS}
        metadata.update(
            chunk_id=chunk_id(row), document_id=row.get("document_id"), rank=rank,
            score=row.get("score"), method=answer.method, title=row.get("title"),
        )
        documents.append(Document(page_content=str(row.get("text") or ""), metadata=metadata,
                                  id=chunk_id(row)))
    return documents
