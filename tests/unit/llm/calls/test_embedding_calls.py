"""EmbeddingCaller: batching, on-disk cache, concurrency bound and dimension discovery."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.testing import FakeEmbeddings
from graphrag_neo4j.runtime.errors import ModelError
from graphrag_neo4j.settings import EmbeddingSettings


class CountingEmbeddings(FakeEmbeddings):
    """FakeEmbeddings that records each batch and how many ran at once."""

    def __init__(self, dimension: int = 16, delay_s: float = 0.0) -> None:
        super().__init__(dimension)
        self.batches: list[list[str]] = []
        self.delay_s = delay_s
        self.max_in_flight = 0
        self._in_flight = 0
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        with self._lock:
            self.batches.append(list(texts))
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
        time.sleep(self.delay_s)
        with self._lock:
            self._in_flight -= 1
        return super().embed_documents(texts)


def _settings(**overrides: object) -> EmbeddingSettings:
    return EmbeddingSettings.model_validate(overrides)


async def test_vectors_come_back_in_order_and_batched(tmp_path: Path) -> None:
    embedder = CountingEmbeddings()
    caller = EmbeddingCaller(embedder, _settings(batch_size=2), tmp_path)
    texts = ["alpha", "beta", "gamma", "delta", "epsilon"]
    vectors = await caller.embed(texts)
    assert np.allclose(vectors, embedder.embed_documents(texts), atol=1e-6)
    assert sorted(len(batch) for batch in embedder.batches[:3]) == [1, 2, 2]


async def test_second_run_makes_zero_embedder_calls(tmp_path: Path) -> None:
    first = CountingEmbeddings()
    texts = ["Euler studied in Basel", "Bernoulli taught Euler"]
    expected = await EmbeddingCaller(first, _settings(), tmp_path).embed(texts)
    again = CountingEmbeddings()
    caller = EmbeddingCaller(again, _settings(), tmp_path)
    assert await caller.embed(texts) == expected
    assert again.batches == []
    assert caller.stats.cache_hits == 2


async def test_duplicates_are_embedded_once_and_no_cache_skips_disk(tmp_path: Path) -> None:
    embedder = CountingEmbeddings()
    caller = EmbeddingCaller(embedder, _settings(), tmp_path, no_cache=True)
    vectors = await caller.embed(["same", "same", "other"])
    assert vectors[0] == vectors[1]
    assert sum(len(batch) for batch in embedder.batches) == 2
    assert caller.cache is None


async def test_a_different_embedder_does_not_reuse_vectors(tmp_path: Path) -> None:
    await EmbeddingCaller(CountingEmbeddings(16), _settings(), tmp_path).embed(["text"])
    wider = CountingEmbeddings(32)
    (vector,) = await EmbeddingCaller(wider, _settings(), tmp_path).embed(["text"])
    assert len(vector) == 32 and len(wider.batches) == 1


async def test_batches_in_flight_stay_within_the_limit() -> None:
    embedder = CountingEmbeddings(delay_s=0.02)
    caller = EmbeddingCaller(embedder, _settings(batch_size=1, concurrency=2), None)
    await caller.embed([f"text {i}" for i in range(8)])
    assert embedder.max_in_flight == 2


async def test_dimension_is_probed_once() -> None:
    embedder = CountingEmbeddings(dimension=24)
    caller = EmbeddingCaller(embedder, _settings(), None)
    assert await caller.dimension() == 24
    assert await caller.dimension() == 24
    assert len(embedder.batches) == 1


async def test_query_vectors_are_cached_too(tmp_path: Path) -> None:
    caller = EmbeddingCaller(FakeEmbeddings(8), _settings(), tmp_path)
    first = await caller.embed_query("who taught Euler")
    second = await asyncio.create_task(caller.embed_query("who taught Euler"))
    assert first == pytest.approx(second)
    assert caller.stats.cache_hits == 1


class _Unreachable(FakeEmbeddings):
    openai_api_base = "http://127.0.0.1:9/v1"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        raise ConnectionRefusedError(111, "Connection refused")

    def embed_query(self, text: str) -> list[float]:
        raise ConnectionRefusedError(111, "Connection refused")


def test_an_unreachable_embedding_endpoint_is_one_sentence() -> None:
    caller = EmbeddingCaller(_Unreachable(), EmbeddingSettings(), None)
    for call in (lambda: caller.embed(["some text"]), lambda: caller.embed_query("a question")):
        with pytest.raises(ModelError) as failure:
            asyncio.run(call())
        message = str(failure.value)
        assert message.startswith("The embedding endpoint http://127.0.0.1:9/v1 is not reachable")
        assert "GRAPHRAG_EMBEDDING__BASE_URL" in message and "\n" not in message


# A stand-in for tiktoken's loader: code under a tiktoken folder that fails as it does offline.
_OFFLINE_LOADER = compile(
    "def read_file(url):\n"
    "    raise ConnectionError(f'Max retries exceeded with url: {url}')\n",
    f"{os.sep}site-packages{os.sep}tiktoken{os.sep}load.py", "exec")


class _OfflineTokenizer(FakeEmbeddings):
    """OpenAI's embedder offline: its tokenizer's encoding download fails before any request."""

    model = "text-embedding-3-small"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        namespace: dict[str, Any] = {}
        exec(_OFFLINE_LOADER, namespace)  # our own two lines, compiled above
        namespace["read_file"]("https://openaipublic.blob.core.windows.net/encodings/cl100k")
        return []


def test_a_tokenizer_download_is_not_blamed_on_the_embedding_endpoint() -> None:
    caller = EmbeddingCaller(_OfflineTokenizer(), EmbeddingSettings(), None)
    with pytest.raises(ModelError) as failure:
        asyncio.run(caller.embed(["some text"]))
    message = str(failure.value)
    assert "tiktoken tokenizer" in message and "TIKTOKEN_CACHE_DIR" in message
    assert "endpoint" not in message and "\n" not in message
