"""Models built on first use: a run the cache answers never builds its chat model or embedder."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

import pytest

from graphrag_neo4j.llm.calls.chat import LLM_CACHE_FILE, LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.lazy_model import LazyModel
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import EmbeddingSettings, LLMSettings

RECIPE = {"provider": "openai", "settings": [{"model": "gpt-4o-mini"}]}


def _unbuildable() -> NoReturn:
    raise AssertionError("the model was built, though the cache held every answer")


class _Builds:
    """A build function that counts its calls."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.count = 0

    def __call__(self) -> Any:
        self.count += 1
        return self.model


def test_a_lazy_model_is_built_once_on_first_use() -> None:
    build = _Builds(FakeChatModel())
    source = LazyModel(RECIPE, build)
    assert not source.built and build.count == 0
    assert source.model is source.model is build.model
    assert build.count == 1


def test_facts_are_remembered_per_recipe(tmp_path: Path) -> None:
    memo = tmp_path / LLM_CACHE_FILE
    build = _Builds(FakeChatModel(model_name="first"))
    first = LazyModel(RECIPE, build).facts(lambda m: {"name": m.model_name}, memo)
    again = LazyModel(RECIPE, _unbuildable).facts(lambda m: {"name": m.model_name}, memo)
    assert first == again == {"name": "first"} and build.count == 1
    other = LazyModel({**RECIPE, "provider": "azure"}, lambda: FakeChatModel(model_name="other"))
    assert other.facts(lambda m: {"name": m.model_name}, memo) == {"name": "other"}


def test_a_ready_model_tells_its_facts_itself(tmp_path: Path) -> None:
    model = FakeChatModel(model_name="given")
    facts = LazyModel.ready(model).facts(lambda m: {"name": m.model_name}, tmp_path / "memo")
    assert facts == {"name": "given"} and not (tmp_path / "memo").exists()


async def test_a_run_the_cache_answers_never_builds_the_chat_model(tmp_path: Path) -> None:
    model = FakeChatModel(rules=[("France", "Paris")])
    cold = LLMCaller(LazyModel(RECIPE, lambda: model), LLMSettings(), tmp_path)
    assert await cold.complete("France?", stage="qa", system="Be brief.") == "Paris"
    cold.close()
    warm = LLMCaller(LazyModel(RECIPE, _unbuildable), LLMSettings(), tmp_path)
    assert await warm.complete("France?", stage="qa", system="Be brief.") == "Paris"
    assert warm.identity == cold.identity and not warm.source.built
    assert warm.usage.total().cache_hits == 1
    warm.close()
    assert len(model.calls) == 1


async def test_the_first_call_the_cache_misses_builds_the_chat_model(tmp_path: Path) -> None:
    build = _Builds(FakeChatModel(rules=[("France", "Paris"), ("Italy", "Rome")]))
    await LLMCaller(LazyModel(RECIPE, build), LLMSettings(), tmp_path).complete(
        "France?", stage="qa")
    caller = LLMCaller(LazyModel(RECIPE, build), LLMSettings(), tmp_path)
    assert await caller.complete("France?", stage="qa") == "Paris"
    assert build.count == 1  # the first caller's build; the second one's cache hit built none
    assert await caller.complete("Italy?", stage="qa") == "Rome"
    assert await caller.complete("Italy? Sure?", stage="qa") == "Rome"
    assert build.count == 2 and caller.source.built
    caller.close()


async def test_a_run_the_cache_answers_never_builds_the_embedder(tmp_path: Path) -> None:
    class English(FakeEmbeddings):
        languages = ("en",)

    settings = EmbeddingSettings()
    cold = EmbeddingCaller(LazyModel(RECIPE, lambda: English(8)), settings, tmp_path)
    vectors = await cold.embed(["Scrooge", "Marley"])
    size = await cold.dimension()
    cold.close()
    warm = EmbeddingCaller(LazyModel(RECIPE, _unbuildable), settings, tmp_path)
    assert await warm.embed(["Marley", "Scrooge"]) == vectors[::-1]
    assert await warm.dimension() == size == 8
    assert (warm.languages, warm.model_name) == (("en",), "fake-hashed-bow-8")
    assert warm.identity == cold.identity and not warm.source.built
    warm.close()


async def test_an_embedder_that_cannot_be_built_fails_as_itself(tmp_path: Path) -> None:
    def broken() -> NoReturn:
        raise ValueError("no such model")

    cold = EmbeddingCaller(LazyModel(RECIPE, FakeEmbeddings), EmbeddingSettings(), tmp_path)
    await cold.embed(["Scrooge"])
    cold.close()
    caller = EmbeddingCaller(LazyModel(RECIPE, broken), EmbeddingSettings(), tmp_path)
    await caller.embed(["Scrooge"])  # cached: nothing to build
    with pytest.raises(ValueError, match="no such model"):  # not an embedding failure
        await caller.embed(["Marley"])
    caller.close()
