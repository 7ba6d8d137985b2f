"""GraphRAGRetriever passes LangChain's own retriever conformance tests, carries each passage's
place as metadata, and works in a chain with a chat model (the example of docs/langchain.md)."""

from __future__ import annotations

from typing import Any

from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnablePassthrough
from langchain_tests.integration_tests import RetrieversIntegrationTests

from graphrag_neo4j.query.base import Answer
from graphrag_neo4j.query.retrieval.langchain_retriever import (
    GraphRAGRetriever,
    passages_as_documents,
)

PASSAGES = [
    {"chunk_id": f"c{n}", "document_id": "d1", "title": "Manual", "text": f"Passage {n}.",
     "ref": n, "document": "Manual", "path": "/docs/manual.pdf", "page_start": n,
     "page_end": n, "section": None, "where": f"manual.pdf p. {n}", "score": 1 - n / 10}
    for n in range(1, 6)
]


class FakeRag:
    """The retrieve-only calls of GraphRAG over five passages of a PDF."""

    def __init__(self) -> None:
        self.questions: list[tuple[str, str | None, dict[str, Any]]] = []

    def retrieve(self, question: str, method: str | None = None, **options: Any) -> Answer:
        self.questions.append((question, method, options))
        return Answer(text="", method=method or "local", sources={"Sources": list(PASSAGES)})

    async def aretrieve(self, question: str, method: str | None = None,
                        **options: Any) -> Answer:
        return self.retrieve(question, method, **options)


class TestGraphRAGRetrieverConformance(RetrieversIntegrationTests):
    """LangChain's standard retriever tests (langchain-tests)."""

    @property
    def retriever_constructor(self) -> type[GraphRAGRetriever]:
        return GraphRAGRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"rag": FakeRag(), "method": "hops"}

    @property
    def retriever_query_example(self) -> str:
        return "How do I upgrade?"


def test_documents_carry_the_passage_and_where_it_came_from() -> None:
    rag = FakeRag()
    retriever = GraphRAGRetriever(rag=rag, method="naive", options={"naive": {"top_k": 4}})
    documents = retriever.invoke("How do I upgrade?", k=2)
    assert [d.page_content for d in documents] == ["Passage 1.", "Passage 2."]
    meta = documents[1].metadata
    assert meta["where"] == "manual.pdf p. 2" and meta["page_start"] == 2
    assert (meta["chunk_id"], meta["rank"], meta["method"]) == ("c2", 2, "naive")
    assert meta["score"] == 0.8 and documents[1].id == "c2"
    assert rag.questions == [("How do I upgrade?", "naive", {"naive": {"top_k": 4}})]


def test_an_old_graph_row_without_places_still_becomes_a_document() -> None:
    answer = Answer(text="", method="naive",
                    sources={"Sources": [{"id": "c9", "text": "Old chunk.", "ref": 1}]})
    [document] = passages_as_documents(answer)
    assert document.page_content == "Old chunk." and document.metadata["where"] is None


def _format(documents: list[Document]) -> str:
    return "\n".join(f"[{d.metadata['where']}] {d.page_content}" for d in documents)


def test_the_documented_chain_answers_from_the_retrieved_passages() -> None:
    retriever = GraphRAGRetriever(rag=FakeRag(), method="hops", k=2)
    prompt = ChatPromptTemplate.from_template(
        "Answer from these passages, citing their place.\n{context}\n\nQuestion: {question}")
    model = FakeListChatModel(responses=["Press u, then g (manual.pdf p. 1)."])
    chain = ({"context": retriever | _format, "question": RunnablePassthrough()}
             | prompt | model | StrOutputParser())
    assert chain.invoke("How do I upgrade?") == "Press u, then g (manual.pdf p. 1)."
    assert chain.batch(["How do I upgrade?"]) == ["Press u, then g (manual.pdf p. 1)."]
