"""The call path cuts every prompt to a model's declared context window."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.llm.tokens.prompt_window import CUT_MARK, cut_middle, fit_messages
from graphrag_neo4j.settings import LLMSettings


class WindowedFake(FakeChatModel):
    """A fake that declares a context window and a reply size, as llama.cpp's model does."""

    n_ctx: int = 300
    max_tokens: int = 50


def _words(messages: Sequence[BaseMessage]) -> int:
    return sum(len(m.text.split()) for m in messages)


def test_a_prompt_past_the_window_loses_the_middle_of_its_longest_message() -> None:
    data = "\n".join(f"- description number {n} of the entity." for n in range(400))
    messages: list[BaseMessage] = [SystemMessage(content="Be brief."),
                HumanMessage(content=f"Combine these:\n{data}\nCombined description:")]
    fitted = fit_messages(messages, 200, _words)
    assert _words(fitted.messages) <= 200 and fitted.cut_from == _words(messages)
    text = fitted.messages[1].text
    assert text.startswith("Combine these:") and text.endswith("Combined description:")
    assert CUT_MARK in text and fitted.messages[0].content == "Be brief."


def test_a_prompt_within_the_window_is_sent_as_it_is() -> None:
    messages: list[BaseMessage] = [HumanMessage(content="Name three primes.")]
    fitted = fit_messages(messages, 200, _words)
    assert fitted.messages == messages and fitted.cut_from == 0


def test_cut_middle_keeps_both_ends_whole_lines() -> None:
    text = "head line\n" + "middle words here\n" * 50 + "tail line"
    cut = cut_middle(text, 600)
    assert cut.startswith("head line") and cut.endswith("tail line") and len(cut) < 400
    assert all(line in {"head line", "tail line", "middle words here", "[...]", ""}
               for line in cut.split("\n"))


def test_the_call_path_never_sends_more_than_the_window_holds(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    model = WindowedFake(rules=[("Question:", "ok")])
    caller = LLMCaller(model, LLMSettings(), tmp_path)
    prompt = "Context:\n" + "\n".join(f"passage {n} says something." for n in range(2000))
    with caplog.at_level(logging.WARNING):
        reply = asyncio.run(caller.complete(prompt + "\nQuestion: why?", stage="summarize"))
    assert reply == "ok"
    sent = model.calls[0].prompt
    # The window holds the prompt and the reply, with a margin.
    assert len(sent.split()) <= model.n_ctx - model.max_tokens
    assert sent.endswith("Question: why?") and "summarize prompt of" in caplog.text
    caller.close()
