"""Chat messages on the call path: (role, text) pairs or LangChain messages, keyed alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

Message: TypeAlias = "BaseMessage | tuple[str, str]"
# A pair's role -> the type LangChain gives that message (SystemMessage, HumanMessage,
# AIMessage), so a pair and its LangChain message share one cache key.
MESSAGE_TYPES = {"system": "system", "human": "human", "user": "human", "ai": "ai",
                 "assistant": "ai"}


def prompt_messages(prompt: str, system: str | None = None) -> list[Message]:
    """The messages `complete` sends for a prompt and an optional system message."""
    messages: list[Message] = [("system", system)] if system else []
    messages.append(("human", prompt))
    return messages


def typed_contents(messages: Sequence[Message]) -> list[tuple[str, Any]]:
    """Each message's LangChain type and content: what a request's cache key holds of it."""
    return [(MESSAGE_TYPES[m[0]], m[1]) if isinstance(m, tuple) else (m.type, m.content)
            for m in messages]
