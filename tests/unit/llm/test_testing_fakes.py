"""The fakes shipped for tests: FakeChatModel rules and FakeEmbeddings similarity."""

from __future__ import annotations

import math
import re

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from graphrag_neo4j.llm.testing import (
    FakeChatModel,
    FakeEmbeddings,
    RecordingEmbeddings,
    UnmatchedPromptError,
)


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_first_matching_rule_wins_and_calls_are_recorded() -> None:
    model = FakeChatModel(rules=[
        ("Euler", "first"),
        (re.compile(r"euler", re.IGNORECASE), "second"),
        ("", "fallback"),
    ])
    assert model.invoke("About Euler").content == "first"
    assert model.invoke("about euler").content == "second"
    assert model.invoke("anything").content == "fallback"
    assert [call.reply for call in model.calls] == ["first", "second", "fallback"]
    assert model.calls[0].prompt == "About Euler"


def test_reply_function_sees_the_whole_conversation() -> None:
    model = FakeChatModel(rules=[("Question", lambda prompt: prompt.upper())])
    reply = model.invoke([SystemMessage(content="sys"), HumanMessage(content="Question")])
    assert reply.content == "SYS\n\nQUESTION"


def test_unmatched_prompt_fails_loudly_with_its_start() -> None:
    model = FakeChatModel(rules=[("known", "yes")])
    with pytest.raises(UnmatchedPromptError, match=r"starting with 'Extract the entities") as info:
        model.invoke("Extract the entities of this long text " + "x" * 1000)
    assert "1 rules tried" in str(info.value)
    assert model.calls == []


async def test_async_path_reports_fake_token_usage() -> None:
    model = FakeChatModel(rules=[("count", "one two")])
    reply = await model.ainvoke("count these four words")
    assert reply.content == "one two"
    assert reply.usage_metadata == {"input_tokens": 4, "output_tokens": 2, "total_tokens": 6}


def test_sync_generate_works_too() -> None:
    model = FakeChatModel(rules=[("hi", "hello")])
    result = model.generate([[HumanMessage(content="hi")], [HumanMessage(content="hi there")]])
    assert [g[0].text for g in result.generations] == ["hello", "hello"]


def test_fake_embeddings_are_deterministic_unit_vectors() -> None:
    embedder = FakeEmbeddings()
    first = embedder.embed_query("Leonhard Euler")
    assert first == FakeEmbeddings().embed_query("Leonhard Euler")
    assert len(first) == 384
    assert math.isclose(math.sqrt(_cosine(first, first)), 1.0, rel_tol=1e-9)
    empty = embedder.embed_query("")
    assert math.isclose(math.sqrt(_cosine(empty, empty)), 1.0)


def test_fake_embeddings_rank_shared_words_higher() -> None:
    embedder = FakeEmbeddings(dimension=256)
    query = embedder.embed_query("Who taught Leonhard Euler mathematics?")
    docs = embedder.embed_documents([
        "Johann Bernoulli taught Leonhard Euler mathematics in Basel.",
        "Leonhard Euler was born in Basel.",
        "Chocolate cake needs butter and sugar.",
    ])
    scores = [_cosine(query, doc) for doc in docs]
    assert scores[0] > scores[1] > scores[2]


def test_fake_embeddings_are_case_insensitive_and_like_word_parts() -> None:
    embedder = FakeEmbeddings()
    base = embedder.embed_query("bernoulli family")
    assert _cosine(base, embedder.embed_query("BERNOULLI Family")) == pytest.approx(1.0)
    near = _cosine(base, embedder.embed_query("the bernoullis"))
    far = _cosine(base, embedder.embed_query("a painter"))
    assert near > far


def test_fake_embeddings_reject_a_zero_dimension() -> None:
    with pytest.raises(ValueError, match="dimension"):
        FakeEmbeddings(dimension=0)


def test_recording_embeddings_keep_every_document_text_and_embed_as_the_fake_does() -> None:
    recorder, plain = RecordingEmbeddings(dimension=32), FakeEmbeddings(dimension=32)
    assert recorder.embed_documents(["a", "b"]) == plain.embed_documents(["a", "b"])
    recorder.embed_documents(["a"])
    assert recorder.texts == ["a", "b", "a"]
