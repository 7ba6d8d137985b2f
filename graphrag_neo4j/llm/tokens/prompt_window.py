"""Cuts a request to its model's context window: the last guard before a prompt reaches it.

The data budgets (`context_window.fit_to_window`) keep the prompts we plan inside a local
model's window; this guard, on the one call path every prompt takes, catches the rest (a
summary of many long descriptions, a long question or history, a user's prompt override). A
prompt past the window made llama.cpp fail or crash. The longest message loses its middle:
instructions open a prompt and the question or output format closes it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from graphrag_neo4j.llm.tokens.counting import count_tokens

logger = logging.getLogger(__name__)

CUT_MARK = "\n[...]\n"
# Tokens kept free besides the reply: the chat template's own and rounding.
MARGIN_TOKENS = 32
# A prompt whose cl100k count is under this share of the room is not counted exactly.
SURE_SHARE = 0.6
MAX_ROUNDS = 5
Counter = Callable[[Sequence[BaseMessage]], int]


@dataclass(frozen=True)
class WindowFit:
    """The messages to send, and how many prompt tokens they had before (0: not cut)."""

    messages: list[BaseMessage]
    cut_from: int = 0


def model_window(model: BaseChatModel) -> int | None:
    """The context window a model declares (llama.cpp's `n_ctx`); None when unknown."""
    window = getattr(model, "n_ctx", None)
    return window if isinstance(window, int) and window > 0 else None


def reply_room(model: BaseChatModel, params: dict[str, Any], default: int) -> int:
    """The tokens the reply may take: the call's max_tokens, else the model's, else `default`."""
    for value in (params.get("max_tokens"), getattr(model, "max_tokens", None)):
        if isinstance(value, int) and value > 0:
            return value
    return default


def fit_messages(
    messages: list[BaseMessage], room: int, counter: Counter
) -> WindowFit:
    """`messages` with the middle of the longest text cut until the prompt takes at most `room`
    tokens by `counter` (the model's own count)."""
    texts = [m.content for m in messages if isinstance(m.content, str)]
    if sum(count_tokens(t) for t in texts) < room * SURE_SHARE:
        return WindowFit(messages)
    fitted, first = list(messages), 0
    for _ in range(MAX_ROUNDS):
        tokens = counter(fitted)
        first = first or tokens
        if tokens <= room:
            break
        fitted = _cut_longest(fitted, tokens - room, tokens)
    return WindowFit(fitted, first if first > room else 0)


def _cut_longest(messages: list[BaseMessage], excess: int, tokens: int) -> list[BaseMessage]:
    """The messages with about `excess` tokens (a tenth more, so few rounds are needed) taken
    out of the middle of the longest one."""
    index = max(range(len(messages)), key=lambda i: _length(messages[i]))
    text = messages[index].content
    if not isinstance(text, str) or not text:
        return messages
    per_token = sum(_length(m) for m in messages) / max(tokens, 1)  # characters, on average
    keep = int((len(text) / per_token - excess) * per_token * 0.9) - len(CUT_MARK)
    cut = messages[index].model_copy(update={"content": cut_middle(text, len(text) - keep)})
    return [*messages[:index], cut, *messages[index + 1:]]


def _length(message: BaseMessage) -> int:
    return len(message.content) if isinstance(message.content, str) else 0


# A cut moves to a line break at most this many characters away (else it falls mid-line).
SNAP_CHARACTERS = 200


def cut_middle(text: str, drop: int) -> str:
    """`text` without at least `drop` characters from its middle (at line breaks when near),
    marked where they were."""
    keep = max(len(text) - drop, 0)
    head = text[: keep // 2]
    tail = text[len(text) - (keep - keep // 2):] if keep > 1 else ""
    end = head.rfind("\n")
    if end >= 0 and len(head) - end <= SNAP_CHARACTERS:
        head = head[:end]
    start = tail.find("\n")
    if 0 <= start <= SNAP_CHARACTERS:
        tail = tail[start + 1:]
    return f"{head.rstrip()}{CUT_MARK}{tail.lstrip()}"


def fit_to_model(
    model: BaseChatModel, messages: list[BaseMessage], params: dict[str, Any],
    default_reply: int, counter: Counter, stage: str,
) -> list[BaseMessage]:
    """The messages cut to the window `model` declares, beside its reply (as they are when it
    declares none); a cut is logged, naming the stage."""
    window = model_window(model)
    if window is None:
        return messages
    room = max(window - reply_room(model, params, default_reply) - MARGIN_TOKENS, window // 4)
    fitted = fit_messages(messages, room, counter)
    if fitted.cut_from:
        logger.warning("A %s prompt of %d tokens was cut to %d to fit the model's %d-token "
                       "window beside its reply.", stage, fitted.cut_from, room, window)
    return fitted.messages
