"""Answers can be streamed: pieces reach the sink, the whole text is returned and cached."""

from __future__ import annotations

from pathlib import Path

from graphrag_neo4j.llm.calls import LLMCaller
from graphrag_neo4j.settings import LLMSettings
from graphrag_neo4j.testing import FakeChatModel


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
