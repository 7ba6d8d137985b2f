"""Citations, chat conversations, upload names and SSE frames: the API's pure pieces."""

from __future__ import annotations

import pytest
from starlette.exceptions import HTTPException

from graphrag_neo4j.api.documents.uploads import safe_name
from graphrag_neo4j.api.openai.routes import ChatMessage, conversation, method_of, model_ids
from graphrag_neo4j.api.streaming.sse import sse_frame
from graphrag_neo4j.citations import cited_rows
from graphrag_neo4j.query.base import Answer
from graphrag_neo4j.query.registry import method_names


def test_citations_resolve_refs_and_drop_invented_ones() -> None:
    answer = Answer(
        text="Daniel [Data: Sources (2, 9); Entities (1)]. Again [Data: Sources (2); Claims (1)]",
        method="local",
        sources={"Sources": [{"ref": 1, "chunk_id": "c1", "text": "x"},
                             {"ref": 2, "chunk_id": "c2", "document_id": "d2", "text": "y"}],
                 "Entities": [{"ref": 1, "id": "e1", "name": "Daniel"}]},
    )
    assert cited_rows(answer) == [
        {"table": "Sources", "ref": 2, "chunk_id": "c2", "document_id": "d2"},
        {"table": "Entities", "ref": 1, "id": "e1", "name": "Daniel"},
    ]


def test_conversation_splits_history_from_the_question() -> None:
    messages = [ChatMessage(role="system", content="Be brief."),
                ChatMessage(role="user", content=[{"type": "text", "text": "Who?"}]),
                ChatMessage(role="assistant", content="Euler."),
                ChatMessage(role="user", content="And his teacher?")]
    question, history = conversation(messages)
    assert question == "And his teacher?"
    assert history == [("system", "Be brief."), ("user", "Who?"), ("assistant", "Euler.")]
    with pytest.raises(HTTPException, match="last message"):
        conversation(messages[:3])


def test_models_follow_the_registry() -> None:
    assert model_ids() == [f"graphrag-{name}" for name in method_names()]
    assert method_of("graphrag-hops") == "hops"
    with pytest.raises(HTTPException) as raised:
        method_of("gpt-4o")
    assert raised.value.status_code == 404


@pytest.mark.parametrize(("given", "saved"), [
    ("../../etc/notes.md", "notes.md"), ("my notes", "my notes.txt"), ("..\\x.txt", "x.txt"),
    ("a/b/.hidden.txt", "hidden.txt"), ("", "document.txt"), ("q?<>.csv", "q_.csv"),
])
def test_upload_names_are_made_safe(given: str, saved: str) -> None:
    assert safe_name(given, ".txt") == saved


def test_uploads_take_the_formats_the_cli_reads_and_refuse_the_rest() -> None:
    """One list for both: the HTTP API once refused .html that the CLI indexed as raw text."""
    for name in ("manual.html", "guide.docx", "talk.pptx", "book.epub", "sheet.xlsx", "a.pdf"):
        assert safe_name(name) == name
    for name in ("tool.exe", "style.css", "guide.rst"):
        with pytest.raises(HTTPException, match=r"\.txt, \.text, \.md") as refused:
            safe_name(name)
        assert refused.value.status_code == 400 and ".html" in refused.value.detail


def test_sse_frames() -> None:
    assert sse_frame({"text": "hi"}, event="token") == b'event: token\ndata: {"text": "hi"}\n\n'
    assert sse_frame("[DONE]") == b"data: [DONE]\n\n"
