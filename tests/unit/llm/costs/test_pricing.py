"""Prices: settings win, local models are free, the dated table knows OpenAI's names."""

from __future__ import annotations

from graphrag_neo4j.llm.costs.pricing import (
    CHAT_PRICES,
    chat_prices,
    embedding_prices,
    table_lookup,
)
from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings


class _Named:
    """A stand-in for a provider model: only its name matters to pricing."""

    _llm_type = "openai-chat"

    def __init__(self, model_name: str) -> None:
        self.model_name = model_name


def test_dated_snapshots_find_their_family_and_the_longest_name_wins() -> None:
    assert table_lookup("gpt-4o-mini-2024-07-18", CHAT_PRICES) == CHAT_PRICES["gpt-4o-mini"]
    assert table_lookup("gpt-4o-2024-08-06", CHAT_PRICES) == CHAT_PRICES["gpt-4o"]
    assert table_lookup("openai/gpt-4.1-mini", CHAT_PRICES) == CHAT_PRICES["gpt-4.1-mini"]
    assert table_lookup("llama3", CHAT_PRICES) is None


def test_the_defaults_models_are_priced_from_the_table() -> None:
    prices = chat_prices(_Named("gpt-4o-mini"), None, None)
    assert prices is not None and "2025" in prices.source
    assert prices.cost(1_000_000, 1_000_000) == 0.15 + 0.60
    embedding = embedding_prices(_Named("text-embedding-3-small"), None)
    assert embedding is not None and embedding.cost(2_000_000) == 0.04


def test_settings_prices_win_over_the_table_and_local_models() -> None:
    prices = chat_prices(_Named("gpt-4o-mini"), 1.0, 2.0)
    assert prices is not None and prices.source == "settings"
    assert prices.cost(1_000_000, 500_000) == 2.0
    fake = chat_prices(FakeChatModel(), 3.0, None)
    assert fake is not None and fake.cost(1_000_000, 1_000_000) == 3.0


def test_local_models_are_free_and_unknown_ones_unpriced() -> None:
    local = chat_prices(FakeChatModel(), None, None)
    assert local is not None and local.cost(10**9, 10**9) == 0.0
    assert chat_prices(_Named("my-own-model"), None, None) is None
    minilm = embedding_prices(MiniLMEmbeddings.__new__(MiniLMEmbeddings), None)
    assert minilm is not None and minilm.prompt_per_1m == 0.0
    fake = embedding_prices(FakeEmbeddings(), None)
    assert fake is not None and fake.prompt_per_1m == 0.0
    assert embedding_prices(_Named("some-embedder"), None) is None
