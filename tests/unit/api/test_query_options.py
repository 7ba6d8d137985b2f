"""HTTP and MCP query options: checked like Python's before anything runs, in every spelling."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from graphrag_neo4j.api.answers import checked_call
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import Settings, renamed_setting_line


@pytest.fixture
def rag() -> Iterator[GraphRAG]:
    with GraphRAG(Settings()) as engine:  # connects to nothing until a query runs
        yield engine


@pytest.mark.parametrize("options", [
    {"hops": {"degree": 2}}, {"hops.degree": 2}, {"hops_degree": 2},
])
def test_nested_dotted_and_old_names_pass_the_check(rag: GraphRAG, options: dict[str, Any]) -> None:
    passed = checked_call(rag, "Who?", "hops", options, rag.settings.server)
    query = make_query(rag.settings, "Who?", **passed)
    assert query.search.hops.degree == 2
    old = "hops_degree" in options
    assert query.notes == ((renamed_setting_line("hops_degree", "hops.degree"),) if old else ())


@pytest.mark.parametrize(("options", "sentence"), [
    ({"hops.typo": 2}, "Unknown query option hops.typo: use one of response_type, history,"),
    ({"hops": {"degree": "two"}}, "Invalid query option (hops.degree: Input should be"),
])
def test_a_bad_option_is_refused_in_one_sentence(
    rag: GraphRAG, options: dict[str, Any], sentence: str
) -> None:
    with pytest.raises(InputError) as refused:
        checked_call(rag, "Who?", "hops", options, rag.settings.server)
    message = str(refused.value)
    assert message.startswith(sentence) and message.endswith(".") and "\n" not in message


@pytest.mark.parametrize(("options", "sentence"), [
    ({"cypher.max_rows": 1_000_000, "cypher.context_tokens": 1_000_000},
     "Invalid query option cypher.max_rows: 1,000,000 is more than the 50 the settings allow"),
    ({"cypher": {"timeout_s": 1_000_000}}, "Invalid query option cypher.timeout_s:"),
    ({"cypher.allowed_procedures": ["dbms.components"]},
     "The query option cypher.allowed_procedures cannot be set per query"),
    ({"mentions": ["x"] * 5000}, "Invalid query option mentions: 5,000 names, more than the 20"),
])
def test_a_client_cannot_raise_a_budget_or_send_a_long_list(
    rag: GraphRAG, options: dict[str, Any], sentence: str
) -> None:
    """Refused before anything runs (a 400 over HTTP and MCP): 5,000 mentions once froze the
    server for two minutes."""
    with pytest.raises(InputError) as refused:
        checked_call(rag, "Who is Alice?", "hops", options, rag.settings.server)
    assert str(refused.value).startswith(sentence)
