"""The registry is the one list of query methods: every text naming them is generated from it."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import graphrag_neo4j
from graphrag_neo4j.api.mcp.server import create_mcp_server
from graphrag_neo4j.api.openai.routes import list_models
from graphrag_neo4j.api.query_routes import QueryRequest
from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.registry import METHODS, create_method, method_guide
from graphrag_neo4j.settings import Settings
from tests.unit.query.fakes import fake_services

PACKAGE = Path(graphrag_neo4j.__file__).parent
REGISTRY = PACKAGE / "query" / "registry.py"
NAME = re.compile(r"\b(" + "|".join(METHODS) + r")\b", re.IGNORECASE)
JUST_NAMES = re.compile(r"\s*(" + "|".join(METHODS) + r")(\s*[,/]\s*(" + "|".join(METHODS) +
                        r"))+\s*", re.IGNORECASE)


def _every_method_in(text: str, with_descriptions: bool = False) -> None:
    for name, factory in METHODS.items():
        assert re.search(rf"\b{name}\b", text), f"{name} missing from {text!r}"
        if with_descriptions:
            assert factory.description in text, f"{name}'s description missing"


def test_each_method_has_its_name_a_sentence_and_a_close(tmp_path: Path) -> None:
    services = fake_services({}, [], tmp_path)
    for name, factory in METHODS.items():
        method = create_method(name, services)
        assert method.name == factory.name == name
        assert method.description[0].isupper() and method.description.endswith(".")
        method.close()
        method.close()  # closing twice is harmless


def test_the_guide_lists_every_method_and_marks_the_default() -> None:
    lines = method_guide().splitlines()
    assert [line.split(":")[0] for line in lines] == [
        f"{name} (default)" if index == 0 else name for index, name in enumerate(METHODS)]
    _every_method_in(method_guide(), with_descriptions=True)


async def test_the_mcp_query_tool_describes_every_method() -> None:
    with GraphRAG(Settings()) as rag:  # nothing connects until a tool runs
        tools = {tool.name: tool for tool in await create_mcp_server(rag).list_tools()}
    query = tools["query"]
    assert query.description is not None
    _every_method_in(query.description, with_descriptions=True)
    _every_method_in(query.input_schema["properties"]["method"]["description"])


async def test_the_http_api_lists_every_method() -> None:
    description = QueryRequest.model_fields["method"].description
    assert description is not None
    _every_method_in(description, with_descriptions=True)
    models = (await list_models())["data"]
    assert [model["id"] for model in models] == [f"graphrag-{name}" for name in METHODS]
    assert [model["description"] for model in models] == [
        factory.description for factory in METHODS.values()]


@pytest.mark.parametrize("command", [["query", "--help"], ["chat", "--help"],
                                     ["eval", "retrieval", "--help"]])
def test_the_cli_method_help_lists_every_method(command: list[str]) -> None:
    _register_subcommands()
    result = CliRunner().invoke(app, command, terminal_width=200)
    assert result.exit_code == 0, result.output
    _every_method_in(result.output)


def _string_literals(path: Path) -> Iterator[tuple[int, str]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def is_method_list(text: str) -> bool:
    """A text naming all methods but at most one, or made of method names only: a hand-written
    list that goes stale when a method is added (as `drift` once went missing from four)."""
    named = {match.lower() for match in NAME.findall(text)}
    return len(named) >= len(METHODS) - 1 or JUST_NAMES.fullmatch(text) is not None


def test_no_module_but_the_registry_lists_the_methods() -> None:
    lists = [
        f"{path.relative_to(PACKAGE)}:{line}: {text[:60]!r}"
        for path in PACKAGE.rglob("*.py") if path != REGISTRY
        for line, text in _string_literals(path) if is_method_list(text)
    ]
    assert lists == []


@pytest.mark.parametrize(("text", "listed"), [
    ("A registered method (local, global, hops, ppr, naive, drift); default local.", True),
    ("naive,hops", True),
    ("Naive/Hops", True),
    ("DRIFT: follow-up questions answered by local search per round.", False),
    ("Naive/Hops: token budget of the passages in the answer prompt.", False),
])
def test_the_list_check_tells_lists_from_prose(text: str, listed: bool) -> None:
    assert is_method_list(text) is listed
