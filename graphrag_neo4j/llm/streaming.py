"""Streaming one chat reply: pass pieces to a sink and stop early when a stop rule fires."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, BaseMessageChunk
from langchain_core.messages.ai import UsageMetadata

from graphrag_neo4j.llm.reply_guards import StopRule, cut_at_last_line
from graphrag_neo4j.llm.tokens import count_tokens

TokenSink = Callable[[str], None]
"""Receives pieces of an answer as the model writes them (for streaming to a terminal)."""


@dataclass(frozen=True)
class Streaming:
    """How a call wants its reply delivered: a sink for pieces and/or a rule to stop early."""

    on_token: TokenSink | None = None
    stop_when: StopRule | None = None

    @property
    def active(self) -> bool:
        """Whether the reply must be streamed rather than fetched in one piece."""
        return self.on_token is not None or self.stop_when is not None

    @property
    def rule_name(self) -> str | None:
        """A stable name of the stop rule, for cache keys."""
        if self.stop_when is None:
            return None
        return f"{self.stop_when.__module__}.{self.stop_when.__qualname__}"


async def stream_reply(
    model: BaseChatModel, messages: Sequence[BaseMessage], params: dict[str, Any],
    streaming: Streaming,
) -> BaseMessage:
    """The whole reply, built from streamed pieces; a fired stop rule closes the stream, which
    makes the model stop generating."""
    whole: BaseMessageChunk | None = None
    text = ""
    async with aclosing(model.astream(messages, **params)) as stream:  # type: ignore[type-var]
        async for chunk in stream:
            whole = chunk if whole is None else whole + chunk
            if not chunk.text:
                continue
            text += chunk.text
            if streaming.on_token is not None:
                streaming.on_token(chunk.text)
            rule = streaming.stop_when
            if rule is not None and "\n" in chunk.text and rule(text):
                return _stopped_reply(cut_at_last_line(text), messages, whole)
    return whole if whole is not None else AIMessage(content="")


def _stopped_reply(
    text: str, messages: Sequence[BaseMessage], whole: BaseMessageChunk | None
) -> AIMessage:
    """A reply cut short: usage never arrived, so tokens are counted here (cl100k estimate)."""
    usage = getattr(whole, "usage_metadata", None)
    if not usage:
        prompt = sum(count_tokens(str(m.content)) for m in messages)
        completion = count_tokens(text)
        usage = UsageMetadata(input_tokens=prompt, output_tokens=completion,
                              total_tokens=prompt + completion)
    return AIMessage(content=text, usage_metadata=usage,
                     response_metadata={"finish_reason": "stop_rule"})
