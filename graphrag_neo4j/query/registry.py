"""The registry of query methods: the only place that lists them; help texts come from here."""

from __future__ import annotations

from graphrag_neo4j.query.base import MethodFactory, QueryMethod, Services
from graphrag_neo4j.query.cypher.search import CypherSearch
from graphrag_neo4j.query.drift.search import DriftSearch
from graphrag_neo4j.query.global_search.search import GlobalSearch
from graphrag_neo4j.query.hops.search import HopsSearch
from graphrag_neo4j.query.local.search import LocalSearch
from graphrag_neo4j.query.ppr.search import PprSearch
from graphrag_neo4j.query.retrieval.naive import NaiveSearch
from graphrag_neo4j.runtime.errors import InputError

# Adding a method: one module with a class that meets QueryMethod (its `name` and
# `description` included), plus one entry here.
FACTORIES: tuple[MethodFactory, ...] = (
    LocalSearch, GlobalSearch, HopsSearch, PprSearch, NaiveSearch, DriftSearch, CypherSearch
)
METHODS: dict[str, MethodFactory] = {factory.name: factory for factory in FACTORIES}
DEFAULT_METHOD = LocalSearch.name
# What `eval retrieval` compares when no method is named: the passage baseline first (every
# other method is compared with it, question by question), then the methods whose passages
# come through the graph.
EVAL_BASELINE = NaiveSearch.name
EVAL_METHODS = (EVAL_BASELINE, LocalSearch.name, HopsSearch.name, PprSearch.name)
# What `eval answers` compares by default: the methods that answer questions about specifics
# (global search answers questions about the whole collection: judge it with --judge).
ANSWER_EVAL_METHODS = (NaiveSearch.name, LocalSearch.name, HopsSearch.name, DriftSearch.name)


def method_names() -> list[str]:
    """Every registered method name, in registry order."""
    return list(METHODS)


def method_list() -> str:
    """The registered names as one comma-separated list, for short help texts."""
    return ", ".join(METHODS)


def method_guide() -> str:
    """One line per method, `name: what it is good for`, the default marked: for help texts
    and for agents choosing a method."""
    return "\n".join(
        f"{name}{' (default)' if name == DEFAULT_METHOD else ''}: {factory.description}"
        for name, factory in METHODS.items()
    )


def listed_methods(text: str, option: str = "--method") -> list[str]:
    """The method names of a comma-separated list, each once, in its order; an unknown name or
    an empty list is one sentence naming the option, so a typo is refused before any work."""
    names = list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [name for name in names if name not in METHODS]
    if unknown:
        raise InputError(f"Unknown method {', '.join(map(repr, unknown))} in {option}: use"
                         f" one or more of {method_list()}, comma-separated.")
    if not names:
        raise InputError(f"{option} names no method: give one or more of {method_list()}.")
    return names


def create_method(name: str | None, services: Services) -> QueryMethod:
    """A new instance of the method `name` (default: local); an unknown name is one sentence."""
    factory = METHODS.get(name or DEFAULT_METHOD)
    if factory is None:
        raise InputError(f"Unknown method {name!r}: use one of {method_list()}.")
    return factory(services)
