"""`POST /v1/query` over a real server: every method, retrieval only, streaming, bad input."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.registry import method_names
from tests.api_fakes import ANSWER, GLOBAL_ANSWER

pytestmark = pytest.mark.integration
QUESTION = "What contribution did the son of Euler's teacher make?"


def _post(api_url: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{api_url}/v1/query", json={"question": QUESTION, **body}, timeout=30)


@pytest.mark.parametrize("method", method_names())
def test_every_method_answers_with_citations_and_context(api_url: str, method: str) -> None:
    response = _post(api_url, method=method)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["method"] == method
    assert body["answer"] == (GLOBAL_ANSWER if method == "global" else ANSWER)
    cited = body["citations"][0]
    assert cited["table"] == ("Reports" if method == "global" else "Sources")
    assert cited["ref"] == 1 and (cited.get("id") or cited.get("chunk_id"))
    assert body["context"]["tables"] and body["usage"]["llm_calls"] >= 1
    assert body["usage"]["total_tokens"] > 0


def test_retrieve_only_returns_the_context_without_an_llm_call(
    api_url: str, served_rag: GraphRAG
) -> None:
    calls = len(served_rag.llm.chat_model.calls)  # type: ignore[attr-defined]
    body = _post(api_url, method="naive", retrieve_only=True).json()
    assert body["answer"] == "" and body["usage"]["llm_calls"] == 0
    sources = body["context"]["tables"]["Sources"]
    assert any(row["text"].startswith("Daniel Bernoulli (1700") for row in sources)
    assert len(served_rag.llm.chat_model.calls) == calls  # type: ignore[attr-defined]


def test_streaming_sends_tokens_then_the_answer(api_url: str) -> None:
    events: list[tuple[str, dict[str, Any]]] = []
    body = {"question": "Who taught Euler?", "method": "local", "stream": True}
    with httpx.stream("POST", f"{api_url}/v1/query", json=body, timeout=30) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        event = ""
        for line in response.iter_lines():
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: "):
                events.append((event, json.loads(line.removeprefix("data: "))))
    tokens = [data["text"] for kind, data in events if kind == "token"]
    assert len(tokens) > 3 and "".join(tokens) == ANSWER
    kind, final = events[-1]
    assert kind == "answer" and final["answer"] == ANSWER and final["citations"]


def test_options_pass_through_and_a_bad_one_is_one_sentence(api_url: str) -> None:
    small = _post(api_url, method="local", retrieve_only=True,
                  options={"local": {"top_chunks": 1, "top_k_entities": 2}}).json()
    assert len(small["context"]["tables"]["Sources"]) == 1
    bad = _post(api_url, method="local", options={"top_chunkz": 1})
    assert bad.status_code == 400
    assert bad.json()["error"]["message"].startswith("Unknown query option top_chunkz")
    unknown = _post(api_url, method="telepathy")
    assert unknown.status_code == 400 and "telepathy" in unknown.json()["error"]["message"]


def test_a_question_over_the_limit_is_413(api_url: str) -> None:
    response = httpx.post(f"{api_url}/v1/query", json={"question": "why " * 2000}, timeout=30)
    assert response.status_code == 413
    assert "server.max_question_chars" in response.json()["error"]["message"]
