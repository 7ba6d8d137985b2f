"""One override path for every method, and one registry of method names."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.errors import InputError
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.registry import METHODS, create_method, method_names
from graphrag_neo4j.settings import Settings
from tests.unit.query.fakes import fake_services


def test_overrides_are_validated_like_the_settings_file() -> None:
    query = make_query(Settings(), "Who?", top_chunks="3", hops_degree=2, level=1)
    assert query.search.top_chunks == 3 and query.search.hops_degree == 2
    assert query.search.community_level == 1
    assert query.response_type == Settings().search.response_type


@pytest.mark.parametrize(
    ("options", "message"),
    [({"top_chunks": "three"}, "top_chunks"), ({"hops_typo": 1}, "Unknown query option hops_typo"),
     ({"top_k": 5}, "Unknown query option top_k")],
)
def test_bad_overrides_are_one_sentence(options: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        make_query(Settings(), "Who?", **options)


def test_an_empty_question_is_refused() -> None:
    with pytest.raises(InputError, match="question is empty"):
        make_query(Settings(), "   ")


def test_history_and_mentions_become_tuples() -> None:
    query = make_query(Settings(), "And then?", history=[("user", "Who?"), ("assistant", "Euler")],
                       mentions=["Euler"], response_type="Single Sentence")
    assert query.history == (("user", "Who?"), ("assistant", "Euler"))
    assert query.mentions == ("Euler",) and query.response_type == "Single Sentence"


def test_with_search_validates_and_keeps_the_rest() -> None:
    query = make_query(Settings(), "Who?", response_type="List")
    changed = query.with_search(naive_top_k=7)
    assert changed.search.naive_top_k == 7 and changed.response_type == "List"
    with pytest.raises(InputError):
        query.with_search(naive_top_k="many")


def test_the_registry_creates_each_method_and_refuses_others(tmp_path: Path) -> None:
    services = fake_services({}, [], tmp_path)
    assert method_names() == list(METHODS) == ["local", "global", "hops", "naive",
                                                 "drift"]
    for name in method_names():
        assert create_method(name, services).name == name
    with pytest.raises(InputError, match="Unknown method 'drfit': use one of local, global"):
        create_method("drfit", services)


def test_a_malformed_history_is_one_sentence() -> None:
    query = make_query(Settings(), "Who?", history=[["user", "Hi"], ("assistant", "Hello")])
    assert query.history == (("user", "Hi"), ("assistant", "Hello"))
    with pytest.raises(InputError, match="list of \\(role, text\\) pairs"):
        make_query(Settings(), "Who?", history=["just a string"])
