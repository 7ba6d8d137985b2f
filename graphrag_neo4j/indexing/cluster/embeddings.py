"""Embedding texts on the Ray cluster: the driver's cache is looked up first, misses go here.

`ClusterEmbeddings` is the model the driver's `EmbeddingCaller` calls for the texts its cache
does not hold: it cuts them into parts of `execution.partition_chunks` texts, each embedded by
a Ray task whose worker builds the embedder once (from `build`, sent once through the object
store). Queries are embedded here, in the driver.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, partial
from typing import Any

from langchain_core.embeddings import Embeddings

from graphrag_neo4j.indexing.cluster.tasks import (
    Shared,
    cluster_map,
    itself,
    part_size,
    shared,
)
from graphrag_neo4j.settings import ExecutionSettings, Settings

BuildEmbeddings = Callable[[], Embeddings]
# Per worker process: the embedder built from each recipe it was sent (by its object's id).
_built: dict[str, Embeddings] = {}


class ClusterEmbeddings(Embeddings):
    """An embedder whose document texts are embedded by Ray tasks."""

    def __init__(self, build: BuildEmbeddings, execution: ExecutionSettings) -> None:
        self._build, self._execution = build, execution

    @classmethod
    def from_settings(cls, settings: Settings) -> ClusterEmbeddings:
        """The embedder the settings ask for, built by each worker from them."""
        return cls(partial(_resolved, settings), settings.execution)

    @classmethod
    def of(cls, model: Embeddings, execution: ExecutionSettings) -> ClusterEmbeddings:
        """`model` itself, sent to each worker once (it must pickle)."""
        return cls(partial(itself, model), execution)

    @cached_property
    def _recipe(self) -> Shared:
        return shared(self._build, self._execution)

    @cached_property
    def _here(self) -> Embeddings:
        return self._build()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text, in order, from the cluster."""
        size = part_size(len(texts), self._execution)
        parts = ((self._recipe, texts[start : start + size])
                 for start in range(0, len(texts), size))
        return [vector for part in cluster_map(embed_texts, parts, self._execution)
                for vector in part]

    def embed_query(self, text: str) -> list[float]:
        """A question's vector, embedded in the driver."""
        return self._here.embed_query(text)


def _resolved(settings: Settings) -> Embeddings:
    from graphrag_neo4j.llm.providers import resolve_embeddings

    return resolve_embeddings(settings).source.model


def embed_texts(recipe: list[Any], texts: list[str]) -> list[list[float]]:
    """On a worker: the texts' vectors by the embedder `recipe` builds (built once here)."""
    import ray

    (reference,) = recipe
    key = reference.hex()
    if key not in _built:
        _built[key] = ray.get(reference)()
    return [list(vector) for vector in _built[key].embed_documents(texts)]
