"""The OpenAI-compatible endpoints driven by the official `openai` SDK and LangChain's client."""

from __future__ import annotations

import openai
import pytest
from langchain_openai import ChatOpenAI
from openai.types.chat import ChatCompletionMessageParam

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.registry import method_names
from tests.api_fakes import ANSWER, GLOBAL_ANSWER

pytestmark = pytest.mark.integration


@pytest.fixture
def client(api_url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{api_url}/v1", api_key="unused-on-loopback", max_retries=0)


def test_models_list_one_model_per_registered_method(client: openai.OpenAI) -> None:
    ids = [model.id for model in client.models.list()]
    assert ids == [f"graphrag-{name}" for name in method_names()]
    assert client.models.retrieve("graphrag-hops").owned_by == "graphrag-neo4j"


def test_chat_completion_answers_with_history_and_usage(
    client: openai.OpenAI, served_rag: GraphRAG
) -> None:
    completion = client.chat.completions.create(model="graphrag-local", messages=[
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "Who was Euler's teacher?"},
        {"role": "assistant", "content": "Johann Bernoulli."},
        {"role": "user", "content": "What did his son contribute?"},
    ])
    assert completion.object == "chat.completion" and completion.model == "graphrag-local"
    assert completion.choices[0].message.content == ANSWER
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage is not None and completion.usage.prompt_tokens > 0
    prompt = served_rag.llm.chat_model.calls[-1].prompt  # type: ignore[attr-defined]
    assert "assistant: Johann Bernoulli." in prompt and "What did his son contribute?" in prompt


def test_streamed_chat_sends_chunks_and_usage(client: openai.OpenAI) -> None:
    stream = client.chat.completions.create(
        model="graphrag-naive", stream=True, stream_options={"include_usage": True},
        messages=[{"role": "user", "content": "Which Bernoulli studied fluid flow?"}],
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == ANSWER and sum(1 for c in chunks if c.choices) > 4
    assert chunks[-2].choices[0].finish_reason == "stop"
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    assert chunks[-1].usage.completion_tokens > 0


def test_a_warning_follows_the_reply_and_stays_out_of_the_history(
    client: openai.OpenAI, served_rag: GraphRAG
) -> None:
    when: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "When did Bernoulli study fluid flow?"}]
    completion = client.chat.completions.create(model="graphrag-naive", messages=when)
    warning = ("\n\n> Check: Answer check: the answer gives no date or time, which the question"
               " asks for; it may name a step on the way rather than the answer.")
    assert completion.choices[0].message.content == ANSWER + warning
    stream = client.chat.completions.create(model="graphrag-naive", messages=when, stream=True)
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) \
        == ANSWER + warning
    client.chat.completions.create(model="graphrag-naive", messages=[
        *when, {"role": "assistant", "content": ANSWER + warning},
        {"role": "user", "content": "Which Bernoulli studied fluid flow?"},
    ])
    prompt = served_rag.llm.chat_model.calls[-1].prompt  # type: ignore[attr-defined]
    assert f"assistant: {ANSWER}" in prompt and "> Check:" not in prompt


def test_options_ride_in_extra_body_and_unknown_models_are_404(client: openai.OpenAI) -> None:
    completion = client.chat.completions.create(
        model="graphrag-global", messages=[{"role": "user", "content": "What is it all about?"}],
        extra_body={"options": {"level": 0}},
    )
    # Grounding flags "Bernoullis" (the graph holds "Bernoulli"); its warning follows.
    assert str(completion.choices[0].message.content).startswith(GLOBAL_ANSWER)
    with pytest.raises(openai.NotFoundError, match="graphrag-local"):
        client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "?"}])
    with pytest.raises(openai.BadRequestError, match="last message"):
        client.chat.completions.create(model="graphrag-local",
                                       messages=[{"role": "assistant", "content": "Hi."}])


def test_langchain_chat_openai_invokes_and_streams(api_url: str) -> None:
    model = ChatOpenAI(model="graphrag-hops", base_url=f"{api_url}/v1", api_key="unused",
                       max_retries=0)
    assert model.invoke("Who was the son of Euler's teacher?").content == ANSWER
    pieces = [chunk.content for chunk in model.stream("What did Daniel Bernoulli study?")]
    assert "".join(map(str, pieces)) == ANSWER and len(pieces) > 4
