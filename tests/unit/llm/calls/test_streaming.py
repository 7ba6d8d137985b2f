"""Answers can be streamed: pieces reach the sink, the whole text is returned and cached."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.reply_guards import repeating_text, without_repeats
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.settings import LLMSettings


async def test_streamed_answer_reaches_the_sink_and_the_cache(tmp_path: Path) -> None:
    model = FakeChatModel(rules=[("capital", "Paris is the capital.")])
    caller = LLMCaller(model, LLMSettings(), tmp_path)
    pieces: list[str] = []
    text = await caller.complete("What is the capital?", stage="answer", on_token=pieces.append)
    assert text == "Paris is the capital." and "".join(pieces) == text
    again: list[str] = []
    assert await caller.complete("What is the capital?", stage="answer", on_token=again.append)
    assert again == [text] and len(model.calls) == 1
    caller.close()


class _Looping(FakeChatModel):
    """Streams one sentence over and over, as a small greedy model may, counting pieces."""

    pieces: int = 0

    async def _astream(self, messages: Any, stop: Any = None, run_manager: Any = None,
                       **kwargs: Any) -> AsyncIterator[ChatGenerationChunk]:
        for _ in range(2000):
            self.pieces += 1
            yield ChatGenerationChunk(message=AIMessageChunk(content="Scrooge is mean. "))


async def test_a_streamed_answer_that_loops_is_stopped(tmp_path: Path) -> None:
    model = _Looping(rules=[])
    caller = LLMCaller(model, LLMSettings(), tmp_path)
    pieces: list[str] = []
    text = await caller.complete("Who is Scrooge?", stage="answer", on_token=pieces.append)
    assert model.pieces < 40 and text.startswith("Scrooge is mean.")
    assert len(without_repeats(text)) < len(text)  # the answer path keeps one copy
    caller.close()


def test_only_a_reply_that_repeats_its_end_is_cut() -> None:
    looping = "Intro line.\n" + "The ghost of Marley visits Scrooge on Christmas Eve. " * 6
    cut = without_repeats(looping)
    assert cut.startswith("Intro line.") and len(cut) < len(looping) / 2
    prose = " ".join(f"Sentence {n} says something new about the book." for n in range(40))
    assert not repeating_text(prose) and without_repeats(prose) == prose
