"""ARCHITECTURE.md's "Where to add" recipes, each followed once: what they promise holds.

A toy query method goes into the registry and the CLI, the HTTP API and the MCP server pick it
up; a toy setting declared once shows in the settings reference, the `init` file and per-query
options; a toy Cypher statement and a toy prompt are found by name, and a user's prompt wins.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import Field
from typer.testing import CliRunner

from graphrag_neo4j.api.app import create_app
from graphrag_neo4j.api.mcp.server import create_mcp_server
from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.cli.reference.settings_file import render_settings_file, write_project
from graphrag_neo4j.cli.reference.settings_reference import render_settings_reference
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.query import base, registry
from graphrag_neo4j.query.base import Answer, Query, Services, make_query
from graphrag_neo4j.query.context import SearchContext
from graphrag_neo4j.runtime import resources
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import SearchSettings, Settings, search_options

TOY_CONTEXT = "toy context for: "


class ToySearch:
    """The least a query method is: a context builder, an answer over it, a document ranking."""

    name = "toy"
    description = "Answers every question with the question itself (a recipe test)."
    streams = False
    needs_llm = False
    ranks_documents = True

    def __init__(self, services: Services) -> None:
        self.services = services

    async def build_context(self, query: Query) -> SearchContext:
        return SearchContext(text=TOY_CONTEXT + query.question,
                             sources={"Sources": [{"ref": 1, "chunk_id": "toy-chunk"}]})

    async def answer(self, query: Query) -> Answer:
        return Answer.from_context("toy", f"Toy: {query.question}", await self.build_context(query))

    async def rank_documents(self, query: Query, k: int) -> list[str]:
        return ["toy-document"][:k]

    def close(self) -> None:
        """Holds nothing."""


class NoStore:
    """A store no toy reads from: any statement run through it is a test failure, but the
    query run's own look-up of where the passages lie (nothing known here)."""

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        if name == "query/chunk_places":
            return []
        raise AssertionError(f"the toy method ran {name}")

    def pending_schema(self) -> list[str]:
        """The graph's indexes are this release's: the answer carries no note about them."""
        return []


@pytest.fixture
def toy_method(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry with the toy added, and engines whose store is never opened."""
    monkeypatch.setitem(registry.METHODS, "toy", ToySearch)
    monkeypatch.setattr(GraphRAG, "store", property(lambda self: NoStore()))


def toy_engine(tmp_path: Path) -> GraphRAG:
    return GraphRAG(Settings(cache_dir=tmp_path), llm=FakeChatModel(rules=[]),
                    embeddings=FakeEmbeddings())


@pytest.mark.usefixtures("toy_method")
def test_a_registered_method_reaches_the_cli(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHRAG_CACHE_DIR", str(tmp_path))
    _register_subcommands()
    result = CliRunner().invoke(app, ["query", "Who?", "--method", "toy", "--json"])
    assert result.exit_code == 0, result.output
    assert '"text": "Toy: Who?"' in result.output
    retrieved = CliRunner().invoke(app, ["query", "Who?", "--method", "toy", "--retrieve-only",
                                         "--show-context"])
    assert retrieved.exit_code == 0, retrieved.output
    assert TOY_CONTEXT + "Who?" in retrieved.output


@pytest.mark.usefixtures("toy_method")
def test_a_registered_method_reaches_the_http_api_and_mcp(tmp_path: Path) -> None:
    rag = toy_engine(tmp_path)
    # No `with`: the lifespan (schema, models) stays off; a loopback Host, as the app checks it.
    client = TestClient(create_app(rag), base_url="http://127.0.0.1")
    models = [model["id"] for model in client.get("/v1/models").json()["data"]]
    assert "graphrag-toy" in models
    reply = client.post("/v1/query", json={"question": "Who?", "method": "toy"})
    assert reply.status_code == 200, reply.text
    assert reply.json()["answer"] == "Toy: Who?"
    chat = client.post("/v1/chat/completions", json={
        "model": "graphrag-toy", "messages": [{"role": "user", "content": "Who?"}]})
    assert chat.json()["choices"][0]["message"]["content"] == "Toy: Who?"
    tools = asyncio.run(create_mcp_server(rag).list_tools())
    query_tool = next(tool for tool in tools if tool.name == "query")
    assert "toy" in (query_tool.description or "")


@pytest.mark.usefixtures("toy_method")
def test_a_registered_method_answers_from_python(tmp_path: Path) -> None:
    with toy_engine(tmp_path) as rag:
        assert rag.query("Who?", method="toy").text == "Toy: Who?"
        assert rag.retrieve("Who?", method="toy").context == TOY_CONTEXT + "Who?"


class ToySearchSettings(SearchSettings):
    toy_budget: int = Field(7, ge=1, description="Toy: how many toys a query may read.")


class ToySettings(Settings):
    search: ToySearchSettings = Field(default_factory=ToySearchSettings)


def test_a_setting_declared_once_is_documented_and_overridable_per_query(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reference = render_settings_reference(ToySettings)
    assert ("| `search.toy_budget` | `int` | `7` | Toy: how many toys a query may read. "
            "`GRAPHRAG_SEARCH__TOY_BUDGET` |") in reference
    settings_file = render_settings_file(ToySettings.model_construct())
    assert "# Toy: how many toys a query may read.\n# toy_budget = 7" in settings_file
    monkeypatch.setattr(base, "SearchSettings", ToySearchSettings)
    monkeypatch.setattr(search_options, "SearchSettings", ToySearchSettings)
    settings = ToySettings()
    query = make_query(settings, "Who?", toy_budget=3)
    assert isinstance(query.search, ToySearchSettings) and query.search.toy_budget == 3
    assert make_query(settings, "Who?").search.toy_budget == 7  # type: ignore[attr-defined]
    with pytest.raises(InputError, match="toy_budget"):
        make_query(settings, "Who?", toy_budget=0)


def test_a_statement_file_is_run_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "count_toys.cypher").write_text(
        "MATCH (t:Toy {colour: $colour}) RETURN count(t) AS toys\n", encoding="utf-8")
    monkeypatch.setattr(resources, "cypher_dir", lambda: tmp_path)
    resources.load_cypher.cache_clear()
    try:
        assert "$colour" in resources.load_cypher("toy/count_toys")
        assert "toy/count_toys" in resources.all_cypher_names()  # so the EXPLAIN test runs it
    finally:
        resources.load_cypher.cache_clear()


def test_a_prompt_file_is_loaded_by_name_and_a_users_copy_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    shipped = tmp_path / "shipped"
    (shipped / "query" / "answers").mkdir(parents=True)
    (shipped / "query" / "answers" / "toy.txt").write_text("Answer {question} like a toy.",
                                                          encoding="utf-8")
    monkeypatch.setattr(resources, "prompts_dir", lambda: shipped)
    monkeypatch.setattr("graphrag_neo4j.cli.reference.settings_file.prompts_dir", lambda: shipped)
    assert resources.load_prompt("query/answers/toy") == "Answer {question} like a toy."
    _, copies = write_project(tmp_path / "project")  # `graphrag-neo4j init`
    copy = copies / "query" / "answers" / "toy.txt"
    assert copy.read_text(encoding="utf-8") == "Answer {question} like a toy."
    copy.write_text("Answer {question} like a tin soldier.", encoding="utf-8")
    assert resources.load_prompt("query/answers/toy", copies) == (
        "Answer {question} like a tin soldier.")
