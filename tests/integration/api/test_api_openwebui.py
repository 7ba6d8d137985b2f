"""Open WebUI's requests to an "OpenAI API" connection, replayed against a real server.

Open WebUI itself is not run here. The shapes follow its backend (routers/openai.py sends the
chat body on with `metadata` popped and `Authorization: Bearer KEY`, an empty key in older
versions; utils/middleware.py reads the SSE lines; routers/tasks.py asks the chat's own model,
`stream: false`, for a title, tags and follow-ups with prompts that start with `### Task:`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from graphrag_neo4j.api.app import create_app
from graphrag_neo4j.api.runner import serving_in_thread
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.registry import method_names
from tests.api_fakes import ANSWER, CLIENT_TASK_REPLIES

pytestmark = pytest.mark.integration

KEY = "openwebui-connection-key"
# What Open WebUI adds to every request (user headers with ENABLE_FORWARD_USER_INFO_HEADERS).
WEBUI_HEADERS = {"Content-Type": "application/json", "X-OpenWebUI-User-Name": "Ada",
                 "X-OpenWebUI-User-Id": "u-1", "X-OpenWebUI-User-Email": "ada@example.org",
                 "X-OpenWebUI-User-Role": "admin", "X-OpenWebUI-Chat-Id": "chat-1"}
# The last user message as Open WebUI sends it with an image attached: a list of parts.
QUESTION_PARTS = [{"type": "text", "text": "What did his son contribute?"},
                  {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}}]
# Sampling params from the model's or user's settings, and fields some versions leave in.
WEBUI_EXTRAS = {"temperature": 0.8, "top_p": 0.9, "max_tokens": 1000, "seed": 42,
                "stop": ["</s>"], "frequency_penalty": 0.0, "logit_bias": {},
                "user": {"name": "Ada", "id": "u-1", "email": "ada@example.org", "role": "admin"},
                "chat_id": "chat-1", "id": "msg-2", "session_id": "sock-1", "tool_ids": None,
                "files": None, "metadata": {"task": None}, "params": {}}


def headers(key: str) -> dict[str, str]:
    """Open WebUI's headers; versions before mid-2025 send `Bearer ` even with no key (which
    arrives as `Bearer`: HTTP drops a header's trailing blanks)."""
    return {**WEBUI_HEADERS, "Authorization": f"Bearer {key}".strip()}


def chat_body(model: str, stream: bool) -> dict[str, Any]:
    """A follow-up turn: system prompt, history, the question as parts, and extras."""
    messages = [{"role": "system", "content": "Answer briefly."},
                {"role": "user", "content": "Who was Euler's teacher?"},
                {"role": "assistant", "content": "Johann Bernoulli."},
                {"role": "user", "content": QUESTION_PARTS}]
    body: dict[str, Any] = {"model": model, "messages": messages, "stream": stream}
    if stream:  # added when the admin ticks the model's "Usage" capability
        body["stream_options"] = {"include_usage": True}
    return {**body, **WEBUI_EXTRAS}


def read_like_openwebui(lines: Iterable[str]) -> dict[str, Any]:
    """What Open WebUI's stream handler takes from SSE lines: `data:` lines as JSON, content
    from choices[0].delta, usage and errors from chunks without choices, and `[DONE]`."""
    seen: dict[str, Any] = {"content": "", "usage": None, "error": None, "done": False}
    for line in lines:
        if not line.strip() or not line.startswith("data:"):
            continue
        try:
            data = json.loads(line[len("data:"):].strip())
        except json.JSONDecodeError:
            seen["done"] = seen["done"] or "data: [DONE]" in line
            continue
        seen["usage"] = data.get("usage") or seen["usage"]
        choices = data.get("choices", [])
        if not choices:
            seen["error"] = data.get("error") or seen["error"]
            continue
        seen["content"] += choices[0].get("delta", {}).get("content") or ""
    return seen


def task_prompt(task: str, chat: str) -> str:
    """A housekeeping prompt of Open WebUI's shape: `### Task:`, rules, the chat quoted."""
    return (f"### Task:\n{task}\n### Guidelines:\n- Be accurate.\n### Output:\nJSON only.\n"
            f"### Chat History:\n<chat_history>\n{chat}\n</chat_history>")


@pytest.fixture(scope="module")
def keyed_url(served_rag: GraphRAG) -> Iterator[str]:
    """The same engine served with an API key, as a connection off this machine needs."""
    server = served_rag.settings.server.model_copy(update={"api_key": SecretStr(KEY)})
    with serving_in_thread(create_app(served_rag, server)) as url:
        yield url


def test_model_list_as_openwebui_reads_it(api_url: str, keyed_url: str) -> None:
    for url, key in ((api_url, ""), (api_url, "any-key"), (keyed_url, KEY)):
        listed = httpx.get(f"{url}/v1/models", headers=headers(key))
        assert listed.status_code == 200, (url, key, listed.text)
        # Open WebUI keeps entries with an id (or name) from `data` and names them by id.
        ids = [model["id"] for model in listed.json()["data"] if model.get("id")]
        assert ids == [f"graphrag-{name}" for name in method_names()]
    refused = httpx.get(f"{keyed_url}/v1/models", headers=headers(""))
    # A wrong key yields a body with "error" and no "data": Open WebUI then lists no models.
    assert refused.status_code == 401 and "data" not in refused.json()
    assert "Authorization: Bearer KEY" in refused.json()["error"]["message"]


def test_streamed_chat_as_openwebui_reads_it(keyed_url: str, served_rag: GraphRAG) -> None:
    body = chat_body("graphrag-local", stream=True)
    with httpx.stream("POST", f"{keyed_url}/v1/chat/completions", json=body,
                      headers=headers(KEY), timeout=60) as response:
        assert response.status_code == 200
        assert "text/event-stream" in response.headers["content-type"]
        seen = read_like_openwebui(response.iter_lines())
    assert seen["content"] == ANSWER and seen["done"] and seen["error"] is None
    assert seen["usage"]["prompt_tokens"] > 0 and seen["usage"]["completion_tokens"] > 0
    prompt = served_rag.llm.chat_model.calls[-1].prompt  # type: ignore[attr-defined]
    assert "assistant: Johann Bernoulli." in prompt and "What did his son contribute?" in prompt
    assert "base64" not in prompt  # the image part is left out


def test_plain_chat_and_errors_as_openwebui_reads_them(api_url: str) -> None:
    url = f"{api_url}/v1/chat/completions"
    reply = httpx.post(url, json=chat_body("graphrag-hops", stream=False), headers=headers(""),
                       timeout=60)
    assert reply.status_code == 200, reply.text
    assert reply.json()["choices"][0]["message"]["content"] == ANSWER
    # Before a stream starts, an error is JSON; Open WebUI shows `error.message`.
    wrong = httpx.post(url, json=chat_body("gpt-4o", stream=True), headers=headers(""))
    assert wrong.status_code == 404 and "application/json" in wrong.headers["content-type"]
    assert "graphrag-local" in wrong.json()["error"]["message"]


# Six turns quoted in full (as the follow-ups prompt does): longer than a question may be.
LONG_CHAT = "\n".join(f"USER: Question {n} about the Bernoullis?\nASSISTANT: {ANSWER * 9}"
                      for n in range(6))


@pytest.mark.parametrize(("task", "wanted"), list(CLIENT_TASK_REPLIES.items()))
def test_housekeeping_prompts_go_to_the_chat_model_alone(
    api_url: str, served_rag: GraphRAG, task: str, wanted: dict[str, Any]
) -> None:
    calls = served_rag.llm.chat_model.calls  # type: ignore[attr-defined]
    before = len(calls)
    prompt = task_prompt(f"{task} for the chat history.", LONG_CHAT)
    assert len(prompt) > served_rag.settings.server.max_question_chars
    body = {"model": "graphrag-global", "messages": [{"role": "user", "content": prompt}],
            "stream": False, "max_tokens": 1000}
    reply = httpx.post(f"{api_url}/v1/chat/completions", json=body, headers=headers(""),
                       timeout=60)
    assert reply.status_code == 200, reply.text
    content = reply.json()["choices"][0]["message"]["content"]
    # Open WebUI's parse: the outermost {...} of the reply as JSON (then its task's field).
    assert json.loads(content[content.find("{"):content.rfind("}") + 1]) == wanted
    # One call with the prompt as sent: no map-reduce over the reports, no retrieval.
    assert len(calls) == before + 1 and calls[-1].prompt == prompt
    assert reply.json()["usage"]["prompt_tokens"] > 0
