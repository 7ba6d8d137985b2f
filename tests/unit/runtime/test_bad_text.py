"""Text UTF-8 cannot encode (lone surrogates) is refused in one sentence, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.runtime.errors import InputError, check_text
from graphrag_neo4j.settings import Settings
from tests.conftest import REPO_ROOT


@pytest.mark.parametrize(("value", "shown"), [
    ("hi \ud800 there", r"the lone surrogate \ud800 at character 4"),
    (b"Who is \xff Alice?".decode("utf-8", "surrogateescape"), r"the byte \xff at character 8"),
    ({"local": {"x": ["ok", "a\udc80"]}}, r"the byte \x80 at character 2"),
    ({"bad\udcffkey": 1}, r"the byte \xff at character 4"),
])
def test_undecodable_text_is_named_wherever_it_sits(value: object, shown: str) -> None:
    with pytest.raises(InputError, match="send it as UTF-8") as raised:
        check_text(value, "question")
    assert shown in str(raised.value)
    str(raised.value).encode("utf-8")  # the sentence itself can be printed and sent


def test_valid_text_passes() -> None:
    check_text({"question": ["Who is Ana García de los Ríos?", "東京", "😀"]}, "question")


@pytest.mark.parametrize(("question", "options"), [
    ("hi \ud800 there", {}),
    ("Who?", {"response_type": "One \udcff line"}),
    ("Who?", {"history": [("user", "earlier \ud800")]}),
    ("Who?", {"mentions": ["Euler", "\udcff"]}),
])
def test_the_python_api_refuses_it_before_any_work(
    question: str, options: dict[str, object]
) -> None:
    with pytest.raises(InputError, match="is not valid UTF-8 text"):
        make_query(Settings(), question, **options)


@pytest.mark.parametrize("call", ["delete", "unmerge"])
def test_delete_and_unmerge_refuse_it_before_connecting(call: str) -> None:
    rag = GraphRAG(Settings())
    with pytest.raises(InputError, match="id is not valid UTF-8 text"):
        getattr(rag, call)("doc\udcff")


@pytest.mark.parametrize("argv", [
    [b"query", b"Who is \xff Alice?"], [b"chat", b"--method", b"lo\xffcal"],
    [b"delete", b"doc\xff"], [b"unmerge", b"merge\xff"],
])
def test_cli_arguments_that_are_not_utf8_are_one_sentence(argv: list[bytes]) -> None:
    env = {**os.environ, "GRAPHRAG_NEO4J__URI": "bolt://127.0.0.1:9"}  # never reached
    done = subprocess.run([sys.executable.encode(), b"-m", b"graphrag_neo4j", *argv],
                          cwd=REPO_ROOT, env=env, capture_output=True, timeout=120)
    errors = done.stderr.decode()
    assert done.returncode == 1, errors
    assert "Traceback" not in errors
    assert "is not valid UTF-8 text (the byte \\xff" in errors


@pytest.mark.parametrize(("tool", "arguments", "what"), [
    ("query", {"question": "hi \ud800 there"}, "question"),
    ("search_entities", {"text": "x\udcff"}, "search text"),
    ("entity_neighbourhood", {"entity_id": "\ud800"}, "id"),
])
async def test_mcp_tools_refuse_it_in_one_sentence(
    tool: str, arguments: dict[str, str], what: str
) -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    from graphrag_neo4j.api.mcp.server import create_mcp_server

    with GraphRAG(Settings()) as rag, \
            pytest.raises(ToolError, match=f"The {what} is not valid UTF-8 text"):
        await create_mcp_server(rag).call_tool(tool, arguments)
