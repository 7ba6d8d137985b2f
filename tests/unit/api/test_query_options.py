"""HTTP and MCP query options: checked like Python's before anything runs, in every spelling."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from graphrag_neo4j.api.answers import checked_call
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.errors import InputError
from graphrag_neo4j.query.base import make_query
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
