"""Safety over a real server: API key, loopback rule, 413, 429 under load, 504, key not logged."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys

import httpx
import pytest
from pydantic import SecretStr

from graphrag_neo4j.api.app import create_app
from graphrag_neo4j.api.runner import server_for, serving_in_thread
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.settings import ServerSettings

pytestmark = pytest.mark.integration
KEY = "s3cret-test-key-0123456789"


def test_missing_or_wrong_key_is_401_and_the_right_one_passes(
    served_rag: GraphRAG, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    limits = ServerSettings(api_key=SecretStr(KEY))
    with serving_in_thread(create_app(served_rag, limits)) as url:
        missing = httpx.get(f"{url}/v1/models", timeout=10)
        wrong = httpx.get(f"{url}/v1/models", headers={"Authorization": "Bearer nope"},
                          timeout=10)
        right = httpx.get(f"{url}/v1/models", headers={"Authorization": f"Bearer {KEY}"},
                          timeout=10)
        health = httpx.get(f"{url}/health", timeout=10)
        docs = httpx.get(f"{url}/docs", timeout=10)
        schema = httpx.get(f"{url}/openapi.json", timeout=10).json()
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    assert {"/v1/query", "/v1/chat/completions", "/v1/documents"} <= set(schema["paths"])
    assert missing.status_code == wrong.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    assert "is missing" in missing.json()["error"]["message"]
    assert "is wrong" in wrong.json()["error"]["message"]
    assert right.status_code == 200 and health.status_code == 200
    assert health.json()["neo4j"]["reachable"] is True
    assert caplog.records and KEY not in caplog.text


def test_non_loopback_bind_without_a_key_is_refused(served_rag: GraphRAG) -> None:
    app = create_app(served_rag)
    with pytest.raises(ConfigError, match=r"Refusing to listen on 0\.0\.0\.0 without an API key"):
        server_for(app, ServerSettings(), "0.0.0.0", 8000)
    assert server_for(app, ServerSettings(api_key=SecretStr(KEY)), "0.0.0.0", 8000)
    run = subprocess.run(
        [sys.executable, "-m", "graphrag_neo4j", "serve", "--host", "0.0.0.0", "--port", "1"],
        capture_output=True, text=True, timeout=60,
    )
    assert run.returncode == 1 and "Refusing to listen on 0.0.0.0" in run.stderr


def test_oversized_bodies_are_413_declared_or_streamed(served_rag: GraphRAG) -> None:
    app = create_app(served_rag, ServerSettings(max_body_bytes=1000))
    with serving_in_thread(app) as url:
        declared = httpx.post(f"{url}/v1/query", json={"question": "x" * 5000}, timeout=10)

        def chunks() -> object:
            yield b'{"question": "'
            for _ in range(20):
                yield b"y" * 100
            yield b'"}'

        streamed = httpx.post(f"{url}/v1/query", content=chunks(),  # type: ignore[arg-type]
                              headers={"content-type": "application/json"}, timeout=10)
        upload = httpx.post(f"{url}/v1/documents", timeout=10,
                            files={"file": ("big.txt", b"z" * 5000, "text/plain")})
    for response in (declared, streamed, upload):
        assert response.status_code == 413, response.text
        assert "server.max_body_bytes" in response.json()["error"]["message"]


async def _burst(url: str, count: int) -> list[httpx.Response]:
    async with httpx.AsyncClient(timeout=60) as client:
        return await asyncio.gather(*(
            client.post(f"{url}/v1/query", json={"question": f"Who taught Euler? ({n})",
                                                 "method": "naive"})
            for n in range(count)
        ))


def test_twenty_requests_with_a_limit_of_four_are_answered_or_429(
    served_rag: GraphRAG
) -> None:
    served_rag.llm.chat_model.latency_s = 1.0  # type: ignore[attr-defined]
    try:
        app = create_app(served_rag, ServerSettings(max_concurrent=4))
        with serving_in_thread(app) as url:
            responses = asyncio.run(_burst(url, 20))
            health = httpx.get(f"{url}/health", timeout=10)
            after = httpx.post(f"{url}/v1/query", json={"question": "Who taught Euler?"},
                               timeout=30)
    finally:
        served_rag.llm.chat_model.latency_s = 0.0  # type: ignore[attr-defined]
    statuses = [r.status_code for r in responses]
    assert len(statuses) == 20 and set(statuses) <= {200, 429}
    assert statuses.count(200) >= 1 and statuses.count(429) >= 1
    busy = next(r for r in responses if r.status_code == 429)
    assert busy.headers["retry-after"] == "2" and "busy" in busy.json()["error"]["message"]
    assert all(r.json()["answer"] for r in responses if r.status_code == 200)
    assert health.status_code == 200 and after.status_code == 200


def test_a_slow_request_gets_a_json_504(served_rag: GraphRAG) -> None:
    served_rag.llm.chat_model.latency_s = 4.0  # type: ignore[attr-defined]
    try:
        app = create_app(served_rag, ServerSettings(request_timeout_s=1.5))
        with serving_in_thread(app) as url:
            slow = httpx.post(f"{url}/v1/query", json={"question": "Who was slow?"}, timeout=30)
            body = {"question": "Who was slow to stream?", "stream": True}
            with httpx.stream("POST", f"{url}/v1/query", json=body, timeout=30) as streamed:
                lines = [line for line in streamed.iter_lines() if line]
            quick = httpx.get(f"{url}/v1/models", timeout=30)  # the server is still fine
    finally:
        served_rag.llm.chat_model.latency_s = 0.0  # type: ignore[attr-defined]
    assert slow.status_code == 504
    assert "longer than 1.5 s" in slow.json()["error"]["message"]
    assert streamed.status_code == 200 and lines[-2] == "event: error"
    assert "longer than 1.5 s" in lines[-1]
    assert quick.status_code == 200
