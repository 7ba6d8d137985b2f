"""The MCP server over stdio, driven by the official `mcp` client: tools, query, entity look-ups."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from graphrag_neo4j.engine import GraphRAG
from tests.api_fakes import ANSWER
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.integration
TOOLS = {"query", "search_entities", "entity_neighbourhood", "community_report",
         "list_documents"}


@asynccontextmanager
async def _session(*args: str) -> AsyncIterator[ClientSession]:
    # The client passes only a few safe variables on; the server needs the test Neo4j's.
    params = StdioServerParameters(command=sys.executable, args=list(args), cwd=REPO_ROOT,
                                   env=dict(os.environ))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def _call(session: ClientSession, tool: str, **arguments: Any) -> Any:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return result.structured_content


async def _explore(cache_dir: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with _session("-m", "tests.mcp_launcher", str(cache_dir)) as session:
        seen["tools"] = (await session.list_tools()).tools
        seen["answer"] = await _call(session, "query", question="What did Euler's teacher's"
                                     " son contribute?", method="hops")
        found = await _call(session, "search_entities", text="Euler", limit=5)
        seen["entities"] = found["entities"]
        euler = next(e for e in found["entities"] if e["name"] == "Leonhard Euler")
        seen["neighbourhood"] = await _call(session, "entity_neighbourhood",
                                            entity_id=euler["id"])
        community = seen["neighbourhood"]["communities"][0]["id"]
        seen["report"] = await _call(session, "community_report", community_id=community)
        seen["documents"] = await _call(session, "list_documents")
        seen["error"] = await session.call_tool("entity_neighbourhood", {"entity_id": "nope"})
    return seen


def test_mcp_tools_answer_and_explore_the_graph(served_rag: GraphRAG, tmp_path: Path) -> None:
    seen = asyncio.run(_explore(tmp_path / "mcp-cache"))
    tools = {tool.name: tool for tool in seen["tools"]}
    assert set(tools) == TOOLS
    assert all(len(tool.description or "") > 150 for tool in tools.values())
    assert seen["answer"]["answer"] == ANSWER and seen["answer"]["citations"]
    assert seen["entities"][0]["matched"] == "name" and seen["entities"][0]["id"]
    relations = seen["neighbourhood"]["relations"]
    assert any(r["predicate"] == "was a student of" for r in relations)
    assert seen["neighbourhood"]["chunks"][0]["document_id"]
    assert seen["report"]["report"] and seen["report"]["members"]
    assert len(seen["documents"]["documents"]) == 4
    assert seen["error"].is_error and "search_entities" in seen["error"].content[0].text


async def _cli_tools() -> set[str]:
    async with _session("-m", "graphrag_neo4j", "mcp") as session:
        return {tool.name for tool in (await session.list_tools()).tools}


def test_the_mcp_command_serves_the_same_tools(served_rag: GraphRAG) -> None:
    assert asyncio.run(_cli_tools()) == TOOLS


HOSTILE: list[tuple[str, dict[str, Any], str]] = [
    ("query", {"question": "Who?", "options": {"response_type": "x" * 3_000_000}},
     "server.max_option_chars"),
    ("query", {"question": "Who?", "options": {"history": [["user", "x" * 3_000_000]]}},
     "server.max_history_chars"),
    ("query", {"question": "x" * 100_000}, "server.max_question_chars"),
    ("query", {"question": "Who?", "options": {"mentions": 5}}, "mentions"),
    ("query", {"question": "Who?", "options": {"local.top_chunks": -1}}, "out of range"),
    ("search_entities", {"text": "y" * 100_000}, "server.max_question_chars"),
    ("entity_neighbourhood", {"entity_id": "z" * 100_000}, "server.max_option_chars"),
    ("list_documents", {"skip": 10**30}, "Invalid skip"),
    ("query", {"question": "Who?", "options": {"cypher.max_rows": 1_000_000}},
     "the settings allow"),
    ("query", {"question": "Who?", "options": {"cypher.allowed_procedures": ["db.labels"]}},
     "cannot be set per query"),
    ("query", {"question": "Who?", "method": "hops", "options": {"mentions": ["x"] * 5000}},
     "search.hops.max_mentions"),
]


async def _hostile(cache_dir: Path) -> list[str]:
    texts = []
    async with _session("-m", "tests.mcp_launcher", str(cache_dir)) as session:
        for tool, arguments, _ in HOSTILE:
            result = await session.call_tool(tool, arguments)
            assert result.is_error, (tool, arguments)
            texts.append(result.content[0].text)  # type: ignore[union-attr]
    return texts


def test_mcp_bounds_and_names_hostile_arguments(served_rag: GraphRAG, tmp_path: Path) -> None:
    """The same limits as HTTP, and a sentence for each refusal (never a bare tool error)."""
    texts = asyncio.run(_hostile(tmp_path / "mcp-cache"))
    for (tool, _, expected), text in zip(HOSTILE, texts, strict=True):
        assert expected in text, (tool, text[:300])
        assert text.rstrip().endswith("."), text[:300]
