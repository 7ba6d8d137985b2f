"""Chat clients' own chores (Open WebUI's titles, tags, follow-ups) answered by the chat model
alone: a graph search over a prompt that quotes the whole chat would cost a query and miss."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.streaming import TokenSink
from graphrag_neo4j.llm.calls.usage import usage_scope
from graphrag_neo4j.query.base import Answer

Turn = tuple[str, str]
TASK_METHOD = "client-task"  # the `method` of these answers
STAGE = "client_task"  # the usage ledger's stage of their calls
# The roles a chat model takes: `developer` is OpenAI's newer name for system; tool turns
# mean nothing here (this API never calls tools), so they are left out.
_ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"}


def is_client_task(turns: Sequence[Turn], prefixes: Sequence[str]) -> bool:
    """Whether the last turn is the user's and starts with one of `prefixes`."""
    marks = tuple(prefix for prefix in prefixes if prefix)
    if not turns or not marks:
        return False
    role, text = turns[-1]
    return role == "user" and text.lstrip().startswith(marks)


async def answer_client_task(
    llm: LLMCaller, turns: Sequence[Turn], on_token: TokenSink | None = None
) -> Answer:
    """The chat model's reply to the conversation as sent, with what it cost."""
    messages = [(_ROLES[role], text) for role, text in turns if role in _ROLES and text.strip()]
    # A scope, not totals: other requests use the same model at the same time.
    with usage_scope() as spent:
        text = await llm.complete_messages(messages, stage=STAGE, on_token=on_token)
    return Answer(text=text, method=TASK_METHOD, llm_calls=spent.calls,
                  prompt_tokens=spent.prompt_tokens, completion_tokens=spent.completion_tokens)
