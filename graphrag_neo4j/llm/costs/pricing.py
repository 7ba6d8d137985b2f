"""Prices per million tokens: the settings' own, else a dated built-in table of OpenAI models."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# USD per million tokens (prompt, completion), from OpenAI's published price list
# (https://openai.com/api/pricing, standard tier) as of 2025-06. Prices change: set
# llm.prompt_price_per_1m / llm.completion_price_per_1m (and embedding.price_per_1m) to override.
PRICE_TABLE_DATE = "2025-06"
CHAT_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "o4-mini": (1.10, 4.40),
    "o3-mini": (1.10, 4.40),
    "gpt-3.5-turbo": (0.50, 1.50),
}
EMBEDDING_PRICES: dict[str, float] = {
    "text-embedding-3-small": 0.02,
    "text-embedding-3-large": 0.13,
    "text-embedding-ada-002": 0.10,
}
# Chat models that run on this machine: their calls cost no money.
LOCAL_CHAT_TYPES = frozenset({"llama.cpp", "fake-chat-model"})
LOCAL_EMBEDDING_MARKERS = ("offline", "fake", "onnx", "minilm")


@dataclass(frozen=True)
class Prices:
    """What a million prompt, completion and embedding tokens cost, and where that came from."""

    prompt_per_1m: float
    completion_per_1m: float
    source: str

    def cost(self, prompt_tokens: float, completion_tokens: float = 0.0) -> float:
        """USD for these token counts."""
        return (prompt_tokens * self.prompt_per_1m
                + completion_tokens * self.completion_per_1m) / 1_000_000


def table_lookup(name: str, table: dict[str, Any]) -> Any | None:
    """The entry of `name`, or of the longest table name it starts with (dated snapshots)."""
    key = name.lower().split("/")[-1]
    if key in table:
        return table[key]
    matches = [known for known in table if key.startswith(known + "-")]
    return table[max(matches, key=len)] if matches else None


def model_name_of(model: Any) -> str:
    """The model name a chat model or embedder reports ("" when it names none)."""
    for attribute in ("model_name", "model", "deployment_name", "deployment"):
        value = getattr(model, attribute, None)
        if isinstance(value, str) and value:
            return value
    path = getattr(model, "model_path", None)
    return getattr(path, "name", "") or ""


def chat_prices(
    model: Any, prompt_per_1m: float | None, completion_per_1m: float | None
) -> Prices | None:
    """Settings prices win; then local models (free); then the built-in table; else None."""
    if prompt_per_1m is not None or completion_per_1m is not None:
        return Prices(prompt_per_1m or 0.0, completion_per_1m or 0.0, "settings")
    if getattr(model, "_llm_type", "") in LOCAL_CHAT_TYPES:
        return Prices(0.0, 0.0, "runs locally")
    name = model_name_of(model)
    found = table_lookup(name, CHAT_PRICES) if name else None
    if found is None:
        return None
    return Prices(found[0], found[1], f"built-in table ({PRICE_TABLE_DATE})")


def embedding_prices(model: Any, price_per_1m: float | None) -> Prices | None:
    """Settings price wins; then local embedders (free); then the built-in table; else None."""
    if price_per_1m is not None:
        return Prices(price_per_1m, 0.0, "settings")
    name = model_name_of(model)
    kind = f"{type(model).__name__} {name}".lower()
    if any(marker in kind for marker in LOCAL_EMBEDDING_MARKERS):
        return Prices(0.0, 0.0, "runs locally")
    found = table_lookup(name, EMBEDDING_PRICES) if name else None
    if found is None:
        return None
    return Prices(float(found), 0.0, f"built-in table ({PRICE_TABLE_DATE})")
