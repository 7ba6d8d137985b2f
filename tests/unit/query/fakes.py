"""Services for query unit tests: canned rows per Cypher statement name, fake models."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings, Rule
from graphrag_neo4j.query.base import QueryMethod
from graphrag_neo4j.query.registry import DEFAULT_METHOD, create_method
from graphrag_neo4j.settings import Settings

Row = dict[str, Any]
# A statement's rows, or a function of its parameters giving them.
Canned = list[Row] | Callable[[dict[str, Any]], list[Row]]


# The status of a community level whose reports are all written: global search reads them all.
WRITTEN_LEVEL: list[Row] = [{"communities": 2, "waiting": False, "total": 2}]


# Hops' reads around Euler, his teacher Johann and Johann's son Daniel (passages c1, c2), with
# no bridge entities and nothing found by fulltext: tests add the passages and their scores.
EULER_SUBGRAPH: dict[str, Canned] = {
    "query/search/search_entities_by_vector": [
        {"mention": "Euler", "id": "e-euler", "name": "Leonhard Euler", "score": 0.95}],
    "query/search/search_relations_by_vector": [
        {"id": "r1", "source_id": "e-johann", "target_id": "e-euler", "score": 0.8}],
    "query/hops/entity_neighbours": [{"id": "e-johann"}],
    "query/hops/relations_around_entities": [
        {"id": "r1", "subject": "Johann Bernoulli", "predicate": "taught",
         "object": "Leonhard Euler", "chunk_ids": ["c1"], "score": 0.8},
        {"id": "r2", "subject": "Daniel Bernoulli", "predicate": "son of",
         "object": "Johann Bernoulli", "chunk_ids": ["c2"], "score": 0.7}],
    "query/hops/head_entities": [],
    "query/hops/pages_titled": [],
    "query/hops/chunk_bridge_entities": [],
    # Passages no candidate relation names state no fact of their own here.
    "query/hops/chunk_relation_scores": [],
    "query/search/search_entities_by_fulltext": [],
}


@dataclass
class CannedStore:
    """Answers `read(name, **params)` with the rows given for that statement name.

    Rows are keyed by statement, never by call order; a statement without rows fails loudly,
    so a test cannot pass on a query nobody expected. The one exception is the query run's
    look-up of where passages lie: without canned rows, nothing is known (as in a graph
    indexed before places were recorded).
    """

    rows: dict[str, Canned]
    reads: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    writes: list[tuple[str, list[Row]]] = field(default_factory=list)

    def read(self, name: str, **params: Any) -> list[Row]:
        """The canned rows of `name` (copies), recording the call."""
        if name == "query/chunk_places" and name not in self.rows:
            return []
        if name not in self.rows:
            raise LookupError(f"CannedStore has no rows for {name!r}")
        self.reads.append((name, params))
        canned = self.rows[name]
        return [dict(row) for row in (canned(params) if callable(canned) else canned)]

    def write_rows(self, name: str, rows: Sequence[Mapping[str, Any]], **params: Any) -> int:
        """Record the rows a statement would write."""
        self.writes.append((name, [dict(row) for row in rows]))
        return len(rows)

    def params_of(self, name: str) -> list[dict[str, Any]]:
        """The parameters of every read of `name`, in order."""
        return [params for read, params in self.reads if read == name]


@dataclass
class FakeServices:
    """Settings, a canned store and fake LLM/embedder behind the real call paths."""

    settings: Settings
    store: CannedStore
    llm: LLMCaller
    embedder: EmbeddingCaller
    chat: FakeChatModel
    methods: dict[str, QueryMethod] = field(default_factory=dict)

    def query_method(self, name: str | None = None) -> QueryMethod:
        """The method called `name`, made once (as the engine keeps its methods)."""
        key = name or DEFAULT_METHOD
        if key not in self.methods:
            self.methods[key] = create_method(key, self)
        return self.methods[key]


def fake_services(rows: Mapping[str, Canned], rules: list[Rule], tmp: Path) -> FakeServices:
    """Services whose LLM answers by `rules` and whose store returns `rows`."""
    settings = Settings(cache_dir=tmp)
    chat = FakeChatModel(rules=rules)
    llm = LLMCaller(chat, settings.llm, None, no_cache=True)
    embedder = EmbeddingCaller(FakeEmbeddings(), settings.embedding, None, no_cache=True)
    return FakeServices(settings, CannedStore(dict(rows)), llm, embedder, chat)
