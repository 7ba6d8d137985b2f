"""Chat clients' chores: which chats are one, and the chat model answering them alone."""

from __future__ import annotations

import pytest

from graphrag_neo4j.api.openai.client_tasks import TASK_METHOD, answer_client_task, is_client_task
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.settings import LLMSettings, ServerSettings

PREFIXES = ServerSettings().client_task_prefixes


@pytest.mark.parametrize(("turns", "prefixes", "chore"), [
    ([("user", "### Task:\nGenerate a title.")], PREFIXES, True),
    ([("system", "Be brief."), ("user", "  \n### Task:\nSuggest tags.")], PREFIXES, True),
    ([("user", "Who taught Euler? ### Task: none")], PREFIXES, False),
    ([("user", "### Task:\nGenerate a title."), ("assistant", "Sure.")], PREFIXES, False),
    ([("user", "### Task:\nGenerate a title.")], [], False),
    ([("user", "Who taught Euler?")], [""], False),  # an empty prefix marks nothing
    ([], PREFIXES, False),
])
def test_a_chore_is_a_last_user_message_with_a_prefix(
    turns: list[tuple[str, str]], prefixes: list[str], chore: bool
) -> None:
    assert is_client_task(turns, prefixes) is chore


async def test_the_chat_model_answers_the_conversation_as_sent() -> None:
    model = FakeChatModel(rules=[("### Task:", '{"title": "Euler"}')])
    caller = LLMCaller(model, LLMSettings(), None)
    turns = [("developer", "Reply in JSON."), ("tool", "ignored"), ("assistant", " "),
             ("user", "### Task:\nGenerate a title.")]
    answer = await answer_client_task(caller, turns)
    assert (answer.text, answer.method) == ('{"title": "Euler"}', TASK_METHOD)
    assert model.calls[0].prompt == "Reply in JSON.\n\n### Task:\nGenerate a title."
    assert answer.llm_calls == 1 and answer.prompt_tokens > 0 and answer.completion_tokens > 0
