"""The models: which chat model answers and which embedder turns text into vectors."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr

from graphrag_neo4j.settings.base import Section


class LLMSettings(Section):
    """Which chat model answers and how calls to it are made."""

    provider: Literal["auto", "openai", "azure", "local"] = Field(
        "auto",
        description="auto = openai when OPENAI_API_KEY is set, otherwise the offline local model.",
    )
    model: str | None = Field(
        None, description="Model name (openai: gpt-4o-mini; azure: the deployment)."
    )
    api_key: SecretStr | None = Field(
        None, description="API key; OPENAI_API_KEY / AZURE_OPENAI_API_KEY when unset."
    )
    base_url: str | None = Field(
        None, description="OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, llama.cpp)."
    )
    azure_endpoint: str | None = Field(None, description="Azure OpenAI endpoint URL.")
    api_version: str | None = Field(None, description="Azure OpenAI API version.")
    gguf_path: Path | None = Field(
        None, description="GGUF file for provider=local; empty = the offline default model."
    )
    n_ctx: int = Field(8192, description="Context window of the local model, in tokens.")
    n_threads: int = Field(
        0, description="CPU threads of the local model; 0 = the cores free when it loads."
    )
    cpu_poll: int = Field(
        0,
        description="How hard llama.cpp's idle threads poll for work (0-100); 0 lets them sleep,"
        " which keeps throughput when another program shares the cores.",
        ge=0,
        le=100,
    )
    temperature: float = Field(0.0, description="Sampling temperature.")
    max_tokens: int = Field(1500, description="Most tokens one answer may generate.")
    repeat_penalty: float = Field(
        1.1,
        description="Repetition penalty of the local llama.cpp model (1.0 = off); small models "
        "decoding greedily otherwise fall into loops of the same record.",
    )
    concurrency: int | None = Field(
        None,
        description="Most LLM calls in flight at once (fewer while the API answers 429); unset:"
        " 25 for OpenAI and Azure, 4 for a server at llm.base_url, which often runs few at a"
        " time (set its parallel slots).",
        ge=1,
    )
    requests_per_minute: float | None = Field(
        None, gt=0, description="Most LLM calls started per minute, spaced evenly (a provider's"
        " rate limit); with `--ray` one limit for the whole cluster. Unset: no pacing.",
    )
    timeout_s: float = Field(600.0, description="Timeout of one LLM call, in seconds.")
    max_retries: int = Field(5, description="Retries on rate limits, timeouts and 5xx.")
    cache: bool = Field(True, description="Reuse cached responses for identical calls.")
    prompt_price_per_1m: float | None = Field(
        None, description="Price per million prompt tokens, for the cost figure."
    )
    completion_price_per_1m: float | None = Field(
        None, description="Price per million completion tokens, for the cost figure."
    )


# What the offline embedder makes of a text longer than its window.
LongTexts = Literal["windows", "truncate"]


class EmbeddingSettings(Section):
    """Which embedder turns text into vectors."""

    provider: Literal["auto", "openai", "azure", "offline", "offline-multilingual"] = Field(
        "auto",
        description="auto = openai when OPENAI_API_KEY is set, otherwise offline MiniLM"
        " (English); offline-multilingual = Universal Sentence Encoder, 16 languages, offline.",
    )
    model: str | None = Field(
        None, description="Model name (openai: text-embedding-3-small; azure: deployment)."
    )
    api_key: SecretStr | None = Field(None, description="API key; OPENAI_API_KEY when unset.")
    base_url: str | None = Field(None, description="OpenAI-compatible embeddings endpoint.")
    azure_endpoint: str | None = Field(
        None, description="Azure OpenAI endpoint; empty = llm.azure_endpoint."
    )
    api_version: str | None = Field(
        None, description="Azure OpenAI API version; empty = llm.api_version."
    )
    threads: int = Field(2, description="CPU threads of the offline embedder (onnxruntime).")
    long_texts: LongTexts = Field(
        "windows", description="A text longer than the offline MiniLM's window (256 word "
        "pieces, about 190 words): `windows` = the mean of its tokens over consecutive windows "
        "(it costs as many runs as windows), `truncate` = its first window only (what "
        "sentence-transformers does: the rest of a long chunk is never seen)."
    )
    batch_size: int = Field(64, description="Texts per embedding request.")
    concurrency: int = Field(2, description="Most embedding batches in flight at once.")
    cache: bool = Field(True, description="Reuse cached vectors for identical texts.")
    price_per_1m: float | None = Field(
        None, description="Price per million embedded tokens, for estimates (else built-in)."
    )
