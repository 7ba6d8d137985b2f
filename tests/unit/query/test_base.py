"""One override path for every method, and one registry of method names."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.registry import METHODS, create_method, method_names
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import Settings
from tests.unit.query.fakes import fake_services


def test_overrides_are_validated_like_the_settings_file() -> None:
    query = make_query(Settings(), "Who?", hops={"degree": 2}, level=1,
                       **{"local.top_chunks": "3", "global.reduce_tokens": 900})
    assert query.search.local.top_chunks == 3 and query.search.hops.degree == 2
    assert query.search.global_.community_level == 1
    assert query.search.global_.reduce_tokens == 900
    assert query.search.hops.rerank is Settings().search.hops.rerank  # the rest kept
    assert query.response_type == Settings().search.response_type
    assert query.notes == ()


def test_the_python_name_of_the_global_section_works_too() -> None:
    query = make_query(Settings(), "Who?", global_={"dynamic_selection": True})
    assert query.search.global_.dynamic_selection is True


def test_old_flat_names_map_to_their_sections_with_a_note() -> None:
    query = make_query(Settings(), "Who?", hops_degree=2, top_chunks="2", hybrid=False)
    assert query.search.hops.degree == 2 and query.search.local.top_chunks == 2
    assert query.search.hybrid.enabled is False
    assert query.notes == (
        "search.hops_degree is deprecated: use search.hops.degree (the old name goes in release"
        " 0.2.0).",
        "search.top_chunks is deprecated: use search.local.top_chunks (the old name goes in"
        " release 0.2.0).",
        "search.hybrid is deprecated: use search.hybrid.enabled (the old name goes in release"
        " 0.2.0).",
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [({"local.top_chunks": "three"}, r"^Invalid query option \(local\.top_chunks: Input should"),
     ({"top_chunks": "three"}, r"^Invalid query option \(local\.top_chunks: Input should"),
     ({"hops": {"degree": "two"}}, r"^Invalid query option \(hops\.degree: Input should"),
     ({"hops_typo": 1}, r"^Unknown query option hops_typo: use one of response_type, history,"),
     ({"hops": {"typo": 1}}, r"^Unknown query option hops\.typo: use one of"),
     ({"hops": 2}, r"^Unknown query option hops: use one of"),
     ({"top_k": 5}, r"^Unknown query option top_k: use one of .*, hops\.degree, .*\.$")],
)
def test_bad_overrides_are_one_sentence(options: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message) as refused:
        make_query(Settings(), "Who?", **options)
    sentence = str(refused.value)
    assert "\n" not in sentence and sentence.endswith(".")
    assert sentence.count("response_type") == (1 if sentence.startswith("Unknown") else 0)


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
    changed = query.with_search(naive={"top_k": 7})
    assert changed.search.naive.top_k == 7 and changed.response_type == "List"
    assert changed.search.hops == query.search.hops
    with pytest.raises(InputError, match=r"naive\.top_k"):
        query.with_search(naive={"top_k": "many"})


def test_the_registry_creates_each_method_and_refuses_others(tmp_path: Path) -> None:
    services = fake_services({}, [], tmp_path)
    assert method_names() == list(METHODS) == ["local", "global", "hops", "ppr", "naive",
                                                 "drift", "cypher"]
    for name in method_names():
        assert create_method(name, services).name == name
    with pytest.raises(InputError, match="Unknown method 'drfit': use one of local, global"):
        create_method("drfit", services)


def test_a_malformed_history_is_one_sentence() -> None:
    query = make_query(Settings(), "Who?", history=[["user", "Hi"], ("assistant", "Hello")])
    assert query.history == (("user", "Hi"), ("assistant", "Hello"))
    with pytest.raises(InputError, match="list of \\(role, text\\) pairs"):
        make_query(Settings(), "Who?", history=["just a string"])


@pytest.mark.parametrize(
    ("options", "allowed"),
    [({"cypher.max_rows": 1_000_000}, 50), ({"cypher.context_tokens": 1_000_000}, 4000),
     ({"local": {"context_tokens": 1_000_000}}, 8000), ({"local_context_tokens": 9000}, 8000),
     ({"local.top_chunks": 4}, 3), ({"cypher.timeout_s": 1_000_000}, 10),
     ({"drift.depth": 3}, 2), ({"lazy_report_budget": 6}, 5), ({"history_tokens": 1001}, 1000)],
)
def test_a_query_may_lower_a_budget_but_not_raise_it(
    options: dict[str, object], allowed: int
) -> None:
    sentence = f"more than the {allowed:,} the settings allow"
    with pytest.raises(InputError, match=sentence) as refused:
        make_query(Settings(), "Who?", **options)
    assert "\n" not in str(refused.value)
    raised = Settings().search.model_copy(update={
        "cypher": Settings().search.cypher.model_copy(update={"max_rows": 500})})
    within = make_query(Settings(search=raised), "Who?", **{"cypher.max_rows": 500})
    assert within.search.cypher.max_rows == 500  # the settings are the ceiling
    assert make_query(Settings(), "Who?", **{"cypher.max_rows": 5}).search.cypher.max_rows == 5


def test_every_budget_a_query_could_raise_is_capped_by_the_settings() -> None:
    """Every number of [search] not marked tunable: raised by one, it is refused."""
    from graphrag_neo4j.settings import per_query_rule, search_setting_names

    base = Settings()
    for name in search_setting_names():
        section, _, key = name.rpartition(".")
        owner = getattr(base.search, "global_" if section == "global" else section) \
            if section else base.search
        value = getattr(owner, key)
        if per_query_rule(name) != "budget" or isinstance(value, bool) \
                or not isinstance(value, int | float):
            continue
        with pytest.raises(InputError, match="the settings allow"):
            make_query(base, "Who?", **{name: value + 1})


def test_settings_only_options_cannot_be_set_per_query() -> None:
    with pytest.raises(InputError, match=r"cypher\.allowed_procedures cannot be set per query"):
        make_query(Settings(), "Who?", **{"cypher.allowed_procedures": ["dbms.killAll"]})


def test_tunable_numbers_stay_within_their_own_bounds() -> None:
    assert make_query(Settings(), "Who?", level=4, hops={"degree": 2}).search.hops.degree == 2
    with pytest.raises(InputError, match=r"hops\.degree"):
        make_query(Settings(), "Who?", hops={"degree": 3})
    with pytest.raises(InputError, match=r"local\.text_unit_prop"):
        make_query(Settings(), "Who?", **{"local.text_unit_prop": 5})


def test_mentions_are_bounded_before_any_work() -> None:
    most = Settings().search.hops.max_mentions
    with pytest.raises(InputError, match=f"5,000 names, more than the {most}"):
        make_query(Settings(), "Who is Alice?", mentions=["x"] * 5000)
    query = make_query(Settings(), "Who?", mentions=["Alice", "Bob", "Alice"])
    assert query.mentions == ("Alice", "Bob")
