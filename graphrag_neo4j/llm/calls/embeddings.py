"""The one path of every embedding call: batched, cached on disk, concurrent within limits."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graphrag_neo4j.llm.cache.disk_cache import DiskCache, stable_key
from graphrag_neo4j.llm.costs.stats import EMBEDDING_STAGE, ModelStats
from graphrag_neo4j.llm.lazy_model import LazyModel
from graphrag_neo4j.llm.tokens.counting import count_tokens
from graphrag_neo4j.runtime.errors import ModelError
from graphrag_neo4j.settings import EmbeddingSettings

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings

EMBEDDING_CACHE_FILE = "embedding_cache.sqlite"
_PROBE_TEXT = "dimension probe"
_ENDPOINT_ATTRIBUTES = ("openai_api_base", "azure_endpoint", "base_url")
_IDENTITY_ATTRIBUTES = ("model", "model_name", "deployment", "dimensions", "dimension",
                        "openai_api_base", "azure_endpoint", "max_tokens", "long_texts")


def embedder_identity(embedder: Embeddings) -> str:
    """Which embedder this is: class plus its model-defining attributes (never secrets)."""
    cls = type(embedder)
    attributes = {name: getattr(embedder, name) for name in _IDENTITY_ATTRIBUTES
                  if isinstance(getattr(embedder, name, None), str | int)}
    return json.dumps({"class": f"{cls.__module__}.{cls.__qualname__}", **attributes},
                      sort_keys=True)


def embedder_name(embedder: Embeddings) -> str:
    """The embedding model's name (OpenAI's `model`, Azure's deployment), else its class's."""
    for attribute in ("model_name", "model", "deployment"):
        value = getattr(embedder, attribute, None)
        if isinstance(value, str) and value:
            return value
    return type(embedder).__name__


def embedder_facts(embedder: Embeddings) -> dict[str, Any]:
    """What the caller needs to know of an embedder before it embeds anything: its identity,
    its model's name and the languages it was trained on (None: any)."""
    languages = getattr(embedder, "languages", None)
    return {"identity": embedder_identity(embedder), "name": embedder_name(embedder),
            "languages": list(languages) if languages is not None else None}


def embedding_failure(exc: BaseException, embedder: Embeddings) -> str:
    """One sentence naming the embedder's endpoint, what went wrong and the fix."""
    endpoint = next((str(getattr(embedder, name)) for name in _ENDPOINT_ATTRIBUTES
                     if getattr(embedder, name, None)), type(embedder).__name__)
    what = f"{type(exc).__name__}: {str(exc)[:200]}"
    if _raised_in(exc, TOKENIZER_MODULE):
        # OpenAI's client cuts long texts with tiktoken, which downloads its encoding first.
        return (f"The embedder {endpoint} could not load its tiktoken tokenizer, whose"
                f" download failed ({what}); on a machine without internet set"
                " TIKTOKEN_CACHE_DIR to a folder holding the encoding, or choose the offline"
                " embedder (GRAPHRAG_EMBEDDING__PROVIDER=offline).")
    if "connect" in type(exc).__name__.lower() or isinstance(exc, OSError):
        return (f"The embedding endpoint {endpoint} is not reachable ({what}); start it, or fix"
                " embedding.base_url (env GRAPHRAG_EMBEDDING__BASE_URL).")
    return (f"The embedder {endpoint} failed ({what}); check the embedding settings (model,"
            " base_url, api_key) and that the endpoint answers.")


TOKENIZER_MODULE = f"{os.sep}tiktoken{os.sep}"


def _raised_in(exc: BaseException, path_part: str) -> bool:
    """Whether `exc`, or an exception it was raised from, passed through code under a path
    holding `path_part` (a package's folder)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        frames = traceback.extract_tb(current.__traceback__)
        if any(path_part in frame.filename for frame in frames):
            return True
        current = current.__cause__ or current.__context__
    return False


def _pack(vector: list[float]) -> str:
    # float32 bytes in base64: a fifth of the JSON size, and exact for float32 models.
    return base64.b64encode(np.asarray(vector, dtype=np.float32).tobytes()).decode("ascii")


def _unpack(blob: str) -> list[float]:
    return [float(x) for x in np.frombuffer(base64.b64decode(blob), dtype=np.float32)]


@dataclass
class EmbeddingStats:
    """What the embedder did during a run."""

    texts: int = 0
    cache_hits: int = 0
    batches: int = 0
    seconds: float = 0.0


class EmbeddingCaller:
    """Embeds texts through one cache and one concurrency limit.

        caller = EmbeddingCaller(embedder, settings.embedding, settings.cache_dir)
        vectors = await caller.embed(["first text", "second text"])
        size = await caller.dimension()

    `embedder` may be a `LazyModel`: it is then built on the first text the cache does not
    hold, so a run the cache answers whole never builds it nor imports LangChain.
    """

    def __init__(
        self,
        embedder: Embeddings | LazyModel[Embeddings],
        settings: EmbeddingSettings,
        cache_dir: Path | None,
        *,
        no_cache: bool = False,
    ) -> None:
        self.source = embedder if isinstance(embedder, LazyModel) else LazyModel.ready(embedder)
        self.settings = settings
        self.cache_dir = cache_dir
        self.cache: DiskCache | None = None
        if settings.cache and not no_cache and cache_dir is not None:
            self.cache = DiskCache(cache_dir / EMBEDDING_CACHE_FILE, "vectors")
        # Speed measurements for estimates, beside the vectors.
        self.model_stats = (ModelStats(cache_dir / EMBEDDING_CACHE_FILE)
                            if cache_dir is not None else None)
        self.stats = EmbeddingStats()
        self._dimension: int | None = None
        self._limiters: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}

    @property
    def embedder(self) -> Embeddings:
        """The embedder, built now if it was not yet."""
        return self.source.model

    @cached_property
    def _facts(self) -> dict[str, Any]:
        memo = self.cache_dir / EMBEDDING_CACHE_FILE if self.cache_dir is not None else None
        return self.source.facts(embedder_facts, memo)

    @property
    def identity(self) -> str:
        """Which embedder this is (`embedder_identity`): part of every cache key, and
        remembered beside the cache so that a run the cache answers need not build it."""
        return str(self._facts["identity"])

    @property
    def model_name(self) -> str:
        """The embedding model's name (its class's when it names none), for messages."""
        return str(self._facts["name"])

    @property
    def languages(self) -> tuple[str, ...] | None:
        """The languages the embedder was trained on; None when it does not say (any)."""
        languages = self._facts["languages"]
        return tuple(languages) if languages is not None else None

    def _limiter(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if loop not in self._limiters:
            self._limiters = {loop: asyncio.Semaphore(max(1, self.settings.concurrency))}
        return self._limiters[loop]

    def text_key(self, text: str) -> str:
        """The cache key of a document text's vector (what `embed` looks up)."""
        return stable_key(self.identity, text)

    def cached_keys(self, keys: list[str]) -> set[str]:
        """Those `keys` whose vectors are cached (blocking; none when the cache is off)."""
        return set(self.cache.get_many(keys)) if self.cache is not None else set()

    async def embed(self, texts: list[str]) -> list[list[float]]:
        """One vector per text, in order; each distinct text is embedded at most once."""
        keys = [self.text_key(text) for text in texts]
        found: dict[str, list[float]] = {}
        if self.cache is not None and texts:
            stored = await asyncio.to_thread(self.cache.get_many, keys)
            found = {key: _unpack(blob) for key, blob in stored.items()}
        missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in found}
        self.stats.texts += len(texts)
        self.stats.cache_hits += len(texts) - len(missing)
        if missing:
            fresh = await self._embed_missing(list(missing.values()))
            # Rounded to float32 like cached ones, so a re-run returns identical vectors.
            computed = {key: np.asarray(vector, dtype=np.float32).tolist()
                        for key, vector in zip(missing.keys(), fresh, strict=True)}
            if self.cache is not None:
                packed = {key: _pack(vector) for key, vector in computed.items()}
                await asyncio.to_thread(self.cache.put_many, packed)
            found.update(computed)
        return [found[key] for key in keys]

    async def embed_query(self, text: str) -> list[float]:
        """A query's vector, through the embedder's query path (some models differ)."""
        key = stable_key(self.identity, "query", text)
        if self.cache is not None:
            blob = await asyncio.to_thread(self.cache.get, key)
            if blob is not None:
                self.stats.cache_hits += 1
                return _unpack(blob)
        embedder = self.embedder  # built here, outside the failures it names
        async with self._limiter(), self._failures_as_error(embedder):
            vector = await embedder.aembed_query(text)
        if self.cache is not None:
            await asyncio.to_thread(self.cache.put, key, _pack(vector))
        return list(vector)

    async def _embed_missing(self, texts: list[str]) -> list[list[float]]:
        size = max(1, self.settings.batch_size)
        batches = [texts[start : start + size] for start in range(0, len(texts), size)]
        results = await asyncio.gather(*(self._embed_batch(batch) for batch in batches))
        return [vector for batch in results for vector in batch]

    async def _embed_batch(self, batch: list[str]) -> list[list[float]]:
        embedder = self.embedder  # built here, outside the failures it names
        async with self._limiter(), self._failures_as_error(embedder):
            started = time.perf_counter()
            # aembed_documents runs a sync embedder in a worker thread.
            vectors = await embedder.aembed_documents(batch)
            seconds = time.perf_counter() - started
            self.stats.seconds += seconds
        if self.model_stats is not None:
            tokens = sum(count_tokens(text) for text in batch)
            await asyncio.to_thread(self.model_stats.record, self.identity, EMBEDDING_STAGE,
                                    tokens, 0, seconds)
        self.stats.batches += 1
        if len(vectors) != len(batch):
            raise ModelError(
                f"The embedder returned {len(vectors)} vectors for {len(batch)} texts; check "
                "its model and endpoint settings."
            )
        return [list(vector) for vector in vectors]

    @asynccontextmanager
    async def _failures_as_error(self, embedder: Embeddings) -> AsyncIterator[None]:
        """An embedder that fails (after its client's own retries) is one sentence, not a trace."""
        try:
            yield
        except (ModelError, asyncio.CancelledError):
            raise
        except Exception as exc:
            raise ModelError(embedding_failure(exc, embedder)) from exc

    async def dimension(self) -> int:
        """The embedder's vector size, found by embedding one probe text (once)."""
        if self._dimension is None:
            (vector,) = await self.embed([_PROBE_TEXT])
            if not vector:
                raise ModelError("The embedder returned an empty vector; check its settings.")
            self._dimension = len(vector)
        return self._dimension

    def summary(self) -> dict[str, Any]:
        """The run's embedding counts, for a closing report."""
        return {"texts": self.stats.texts, "cache_hits": self.stats.cache_hits,
                "batches": self.stats.batches, "seconds": round(self.stats.seconds, 2)}

    def close(self) -> None:
        """Close the on-disk cache and the measurements."""
        for store in (self.cache, self.model_stats):
            if store is not None:
                store.close()
