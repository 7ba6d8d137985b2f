"""One request to a LangChain chat model: its messages, and the reply whole or streamed.

The call path imports this module on its first request that the cache does not answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import aclosing
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    BaseMessageChunk,
    HumanMessage,
    SystemMessage,
)
from langchain_core.messages.ai import UsageMetadata

from graphrag_neo4j.llm.calls.messages import MESSAGE_TYPES, Message
from graphrag_neo4j.llm.calls.reply_guards import cut_at_last_line
from graphrag_neo4j.llm.calls.streaming import Streaming
from graphrag_neo4j.llm.tokens.counting import count_tokens

_CLASSES: dict[str, type[BaseMessage]] = {"system": SystemMessage, "human": HumanMessage,
                                          "ai": AIMessage}


def to_messages(messages: Sequence[Message]) -> list[BaseMessage]:
    """LangChain messages for (role, text) pairs; LangChain messages pass as they are."""
    return [_CLASSES[MESSAGE_TYPES[m[0]]](content=m[1]) if isinstance(m, tuple) else m
            for m in messages]


async def request_reply(
    model: BaseChatModel, messages: Sequence[BaseMessage], params: dict[str, Any],
    streaming: Streaming,
) -> AIMessage:
    """The model's reply, streamed when the call wants pieces or may stop early."""
    if streaming.active:
        reply: Any = await stream_reply(model, messages, params, streaming)
    else:
        reply = await model.ainvoke(messages, **params)
    if isinstance(reply, AIMessage):
        return reply
    return AIMessage(content=str(getattr(reply, "content", reply)))


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
            if rule is not None and rule(text):
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
