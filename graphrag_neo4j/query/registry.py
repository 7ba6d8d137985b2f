"""The registry of query methods: the only place that lists their names."""

from __future__ import annotations

from graphrag_neo4j.errors import InputError
from graphrag_neo4j.query.base import MethodFactory, QueryMethod, Services
from graphrag_neo4j.query.drift import DriftSearch
from graphrag_neo4j.query.global_search import GlobalSearch
from graphrag_neo4j.query.hops.search import HopsSearch
from graphrag_neo4j.query.local import LocalSearch
from graphrag_neo4j.query.naive import NaiveSearch

# Adding a method: one module with a class that meets QueryMethod, plus one line here.
METHODS: dict[str, MethodFactory] = {
    "local": LocalSearch,
    "global": GlobalSearch,
    "hops": HopsSearch,
    "naive": NaiveSearch,
    "drift": DriftSearch,
}
DEFAULT_METHOD = "local"


def method_names() -> list[str]:
    """Every registered method name, in registry order."""
    return list(METHODS)


def create_method(name: str | None, services: Services) -> QueryMethod:
    """A new instance of the method `name` (default: local); an unknown name is one sentence."""
    factory = METHODS.get(name or DEFAULT_METHOD)
    if factory is None:
        raise InputError(f"Unknown method {name!r}: use one of {', '.join(METHODS)}.")
    return factory(services)
