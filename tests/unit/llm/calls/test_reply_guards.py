"""A looping reply is noticed and its generation stopped; its cut text is cached apart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.reply_guards import cut_at_last_line, repeating_lines
from graphrag_neo4j.settings import LLMSettings

RECORD_A = "<concept><name>Scrooge</name><type>person</type></concept>"
RECORD_B = "<concept><name>Marley</name><type>person</type></concept>"


def test_fresh_lines_are_not_a_loop() -> None:
    lines = [f"<concept><name>N{i}</name></concept>" for i in range(10)]
    assert not repeating_lines("\n".join(lines) + "\n")


def test_the_same_line_again_and_again_is_a_loop() -> None:
    assert repeating_lines("\n".join([RECORD_A, RECORD_B] + [RECORD_B] * 3) + "\n")


def test_two_lines_alternating_is_a_loop() -> None:
    assert repeating_lines("\n".join([RECORD_A, RECORD_B] * 3) + "\n")


def test_a_few_repeats_among_new_lines_are_no_loop() -> None:
    text = "\n".join([RECORD_A, RECORD_B, RECORD_A, "<concept>new</concept>", RECORD_B]) + "\n"
    assert not repeating_lines(text)


def test_the_unfinished_last_line_is_cut() -> None:
    assert cut_at_last_line("one\ntwo\nthr") == "one\ntwo\n"
    assert cut_at_last_line("no break") == "no break"


class _LoopingModel(BaseChatModel):
    """Streams two fresh records, then the second one forever; counts what it generated."""

    generated: int = 0
    closed: bool = False

    @property
    def _llm_type(self) -> str:
        return "looping"

    def _generate(self, messages: list[BaseMessage], stop: Any = None,
                  run_manager: Any = None, **kwargs: Any) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=RECORD_A))])

    async def _astream(self, messages: list[BaseMessage], stop: Any = None,
                       run_manager: Any = None, **kwargs: Any
                       ) -> AsyncIterator[ChatGenerationChunk]:
        try:
            for line in [RECORD_A, RECORD_B] + [RECORD_B] * 10_000:
                self.generated += 1
                yield ChatGenerationChunk(message=AIMessageChunk(content=line + "\n"))
        finally:
            self.closed = True


async def test_a_stop_rule_ends_generation_and_keeps_whole_lines(tmp_path: Path) -> None:
    model = _LoopingModel()
    caller = LLMCaller(model, LLMSettings(), tmp_path)
    text = await caller.complete("extract", stage="extraction", stop_when=repeating_lines)
    assert text.splitlines() == [RECORD_A, RECORD_B, RECORD_B, RECORD_B, RECORD_B]
    assert model.closed and model.generated == 5
    stage = caller.usage.stages()["extraction"]
    assert stage.completion_tokens > 0 and stage.prompt_tokens > 0
    # Same prompt with the rule again: from the cache; without the rule: a different request.
    assert await caller.complete("extract", stage="extraction", stop_when=repeating_lines) == text
    assert model.generated == 5
    assert await caller.complete("extract", stage="extraction") == RECORD_A
    caller.close()
