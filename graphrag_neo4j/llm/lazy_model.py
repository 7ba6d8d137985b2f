"""A chat model or embedder built on first use, and what it says of itself known before that.

A run whose every call the cache answers never builds its models, so it never imports their
client libraries (LangChain and openai take over a second to import). Its cache keys still need
the model's identity, which only a built model tells: the first time a recipe builds its model,
what the model says of itself is remembered beside the cache under that recipe.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from graphrag_neo4j.llm.cache.disk_cache import DiskCache, stable_key

T = TypeVar("T")
FACTS_TABLE = "model_facts"
_FACTS_VERSION = 1  # bump when what is remembered of a model changes


@dataclass
class LazyModel(Generic[T]):
    """A model and how to build it; built once, on the first read of `model`.

        source = LazyModel({"provider": "openai", ...}, build_chat_model)
        facts = source.facts(lambda model: {"identity": identify(model)}, cache_file)
        reply = await source.model.ainvoke(messages)    # built here, not before

    `recipe` is what the model is built from (settings and environment, never a secret); None
    for a model that came built, whose facts are read from it.
    """

    recipe: Mapping[str, Any] | None
    build: Callable[[], T]
    _model: T | None = field(default=None, init=False, repr=False)
    # Estimates read the model from worker threads: it is still built only once.
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False,
                                  compare=False)

    @classmethod
    def ready(cls, model: T) -> LazyModel[T]:
        """A model that is already built."""
        source = cls(None, lambda: model)
        source._model = model
        return source

    @property
    def built(self) -> bool:
        """Whether the model exists yet."""
        return self._model is not None

    @property
    def model(self) -> T:
        """The model, built now if it was not yet."""
        with self._lock:
            if self._model is None:
                self._model = self.build()
            return self._model

    def facts(self, read: Callable[[T], dict[str, Any]], memo_file: Path | None
              ) -> dict[str, Any]:
        """What `read` says of the model: read from it when it is built (or comes without a
        recipe); else as remembered in `memo_file` since this recipe last built it; else the
        model is built now, read and remembered there."""
        if self.recipe is None or memo_file is None:
            return read(self.model)
        # A handle on this process's one connection to the file (see `sqlite_file`): taking
        # one per call costs a lookup, and never drops the locks of the process's cache.
        memo = DiskCache(memo_file, FACTS_TABLE)
        try:
            key = stable_key(_FACTS_VERSION, self.recipe)
            known = None if self.built else memo.get(key)
            if known is None:
                known = read(self.model)
                memo.put(key, known)
            return dict(known)
        finally:
            memo.close()
