"""Turns settings into a LangChain chat model and embedder, saying which one and why.

Resolving checks the settings and names the model at once; the model itself, and the client
library it comes from, is built on first use from the recipe resolution returns (`LazyModel`).
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, SecretStr

from graphrag_neo4j import __version__
from graphrag_neo4j.llm.lazy_model import LazyModel
from graphrag_neo4j.llm.offline.catalog import DEFAULT_GGUF_NAME, MINILM, MULTILINGUAL
from graphrag_neo4j.runtime.errors import ConfigError, ModelError
from graphrag_neo4j.settings import EmbeddingSettings, LLMSettings, Settings

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings
    from langchain_core.language_models import BaseChatModel

T = TypeVar("T")

DEFAULT_OPENAI_CHAT_MODEL = "gpt-4o-mini"
DEFAULT_OPENAI_EMBEDDING_MODEL = "text-embedding-3-small"
# OpenAI-compatible local servers (Ollama, vLLM, llama.cpp) ignore the key but the client wants one.
_PLACEHOLDER_KEY = "not-needed"
# What the OpenAI clients read from the environment about where and how to call (never a key).
_CLIENT_ENV = ("OPENAI_API_BASE", "OPENAI_BASE_URL", "OPENAI_API_VERSION", "OPENAI_API_TYPE",
               "AZURE_OPENAI_ENDPOINT")


@dataclass(frozen=True)
class ResolvedModel(Generic[T]):
    """A model, built on first use, plus one line saying which provider/model it is and why."""

    source: LazyModel[T]
    description: str

    @property
    def model(self) -> T:
        """The model object, built now if it was not yet."""
        return self.source.model


def _recipe(provider: str, *sections: BaseModel) -> dict[str, Any]:
    """What a model is built from, under which what it says of itself is remembered: the
    provider, the settings sections it reads (keys left out), the clients' environment and
    this package's version."""
    return {
        "provider": provider,
        "settings": [section.model_dump(mode="json", exclude={"api_key"})
                     for section in sections],
        "env": {name: os.environ.get(name) for name in _CLIENT_ENV},
        "version": __version__,
    }


def _env_key(name: str) -> SecretStr | None:
    value = os.environ.get(name)
    return SecretStr(value) if value else None


def _openai_key(section: str, api_key: SecretStr | None, base_url: str | None) -> SecretStr:
    """The OpenAI key for settings `section`; a keyless local server gets a stand-in."""
    key = api_key or _env_key("OPENAI_API_KEY")
    if key is None and not base_url:
        prefix = f"GRAPHRAG_{section.upper()}"
        raise ConfigError(
            f"The openai {'LLM' if section == 'llm' else section} provider needs an API key; set "
            f"OPENAI_API_KEY or {prefix}__API_KEY, or {prefix}__BASE_URL for a local "
            "OpenAI-compatible server."
        )
    return key or SecretStr(_PLACEHOLDER_KEY)


def _served_by(base_url: str | None) -> str:
    return f"OpenAI-compatible {base_url}" if base_url else "openai"


def _choose(
    provider: str, api_key: SecretStr | None, base_url: str | None, *, env_key: bool = True
) -> tuple[str, str]:
    """The concrete provider for `auto` from a component's own settings, with the reason shown
    to the user; `env_key` False when OPENAI_API_KEY belongs to another server."""
    if provider != "auto":
        return provider, f"provider={provider}"
    if api_key is not None:
        return "openai", "api_key configured"
    if base_url:
        return "openai", "base_url configured"
    if not os.environ.get("OPENAI_API_KEY"):
        return "offline", "no OPENAI_API_KEY"
    if not env_key:
        return "offline", "OPENAI_API_KEY is the key of llm.base_url's server"
    return "openai", "OPENAI_API_KEY is set"


def _choose_embedder(settings: Settings) -> tuple[str, str]:
    """The embedder's provider from the embedding section: OPENAI_API_KEY counts only while the
    LLM does not send it to a server of its own (llm.base_url), whose key it then is; OpenAI's
    vectors there would not match a graph embedded offline."""
    embedding = settings.embedding
    return _choose(embedding.provider, embedding.api_key, embedding.base_url,
                   env_key=not settings.llm.base_url)


def local_llm_chosen(settings: Settings) -> bool:
    """Whether the settings resolve to the in-process llama.cpp model (without loading it)."""
    llm = settings.llm
    provider, _ = _choose(llm.provider, llm.api_key, llm.base_url)
    return provider in ("local", "offline")


def resolve_llm(settings: Settings) -> ResolvedModel[BaseChatModel]:
    """The chat model the settings ask for; auto = openai with a key, else the offline GGUF."""
    llm = settings.llm
    provider, reason = _choose(llm.provider, llm.api_key, llm.base_url)
    if provider == "openai":
        return _openai_chat(llm, reason)
    if provider == "azure":
        return _azure_chat(llm, reason)
    return _local_chat(settings, reason)


def _client_options() -> dict[str, Any]:
    """What every OpenAI-style chat model of ours is built with, whatever the endpoint."""
    import openai

    return {
        # LLMCaller owns retries, so they do not multiply with the client's.
        "max_retries": 0,
        # Ask every endpoint for usage in streamed replies: the client asks OpenAI's own URL
        # only, and Ollama, vLLM, LM Studio and llama.cpp's server all answer it.
        "stream_usage": True,
        # A client of its own: the shared default one keeps pooled connections bound to the
        # first event loop that used them, which another engine's loop cannot use.
        "http_async_client": openai.DefaultAsyncHttpxClient(),
    }


def _openai_chat(llm: LLMSettings, reason: str) -> ResolvedModel[BaseChatModel]:
    name = llm.model or DEFAULT_OPENAI_CHAT_MODEL
    key = _openai_key("llm", llm.api_key, llm.base_url)

    def build() -> BaseChatModel:
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(
            model=name,
            api_key=key,
            base_url=llm.base_url,
            temperature=llm.temperature,
            max_completion_tokens=llm.max_tokens,
            timeout=llm.timeout_s,
            **_client_options(),
        )

    return ResolvedModel(LazyModel(_recipe("openai", llm), build),
                         f"{_served_by(llm.base_url)}: {name} ({reason})")


def _azure_chat(llm: LLMSettings, reason: str) -> ResolvedModel[BaseChatModel]:
    endpoint = llm.azure_endpoint or os.environ.get("AZURE_OPENAI_ENDPOINT")
    version = llm.api_version or os.environ.get("OPENAI_API_VERSION")
    key = llm.api_key or _env_key("AZURE_OPENAI_API_KEY")
    missing = [label for label, value in (
        ("GRAPHRAG_LLM__MODEL (the deployment)", llm.model),
        ("GRAPHRAG_LLM__AZURE_ENDPOINT", endpoint),
        ("GRAPHRAG_LLM__API_VERSION", version),
        ("AZURE_OPENAI_API_KEY", key),
    ) if not value]
    if missing:
        raise ConfigError(f"The azure LLM provider is missing {', '.join(missing)}; set them.")

    def build() -> BaseChatModel:
        from langchain_openai import AzureChatOpenAI

        return AzureChatOpenAI(
            azure_deployment=llm.model,
            azure_endpoint=endpoint,
            api_version=version,
            api_key=key,
            temperature=llm.temperature,
            max_tokens=llm.max_tokens,
            timeout=llm.timeout_s,
            **_client_options(),
        )

    return ResolvedModel(LazyModel(_recipe("azure", llm), build),
                         f"azure: deployment {llm.model} at {endpoint} ({reason})")


def _local_chat(settings: Settings, reason: str) -> ResolvedModel[BaseChatModel]:
    if importlib.util.find_spec("xllamacpp") is None:
        raise ModelError(
            "The local LLM needs llama.cpp bindings; run `pip install xllamacpp`, or set "
            "OPENAI_API_KEY to use OpenAI."
        )
    llm = settings.llm
    if llm.gguf_path is not None:
        if not llm.gguf_path.is_file():
            raise ConfigError(
                f"GGUF file {llm.gguf_path} does not exist; fix GRAPHRAG_LLM__GGUF_PATH or "
                "unset it to use the offline default model."
            )
        label = f"local llama.cpp: {llm.gguf_path}"
    else:
        label = f"offline local llama.cpp: {DEFAULT_GGUF_NAME}"

    def build() -> BaseChatModel:
        from graphrag_neo4j.llm.offline.download import ensure_default_gguf
        from graphrag_neo4j.llm.offline.llm import LocalLlamaChatModel

        return LocalLlamaChatModel(
            model_path=llm.gguf_path or ensure_default_gguf(settings.cache_dir),
            n_ctx=llm.n_ctx,
            n_threads=llm.n_threads,
            cpu_poll=llm.cpu_poll,
            temperature=llm.temperature,
            max_tokens=llm.max_tokens,
            repeat_penalty=llm.repeat_penalty,
        )

    return ResolvedModel(LazyModel(_recipe("local", llm), build), f"{label} ({reason})")


def resolve_embeddings(settings: Settings) -> ResolvedModel[Embeddings]:
    """The embedder the settings ask for; auto = openai with a key, else offline MiniLM."""
    embedding = settings.embedding
    provider, reason = _choose_embedder(settings)
    if provider == "openai":
        return _openai_embeddings(embedding, reason)
    if provider == "azure":
        return _azure_embeddings(settings, reason)
    if provider == "offline-multilingual":
        return _multilingual_embeddings(embedding, reason)

    def build() -> Embeddings:
        from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings

        return MiniLMEmbeddings(threads=embedding.threads, cache_dir=settings.cache_dir,
                                long_texts=embedding.long_texts)

    return ResolvedModel(
        LazyModel(_recipe("offline", embedding), build),
        f"offline onnxruntime: {MINILM.name}, {MINILM.dimension} dimensions ({reason})",
    )


def _multilingual_embeddings(
    embedding: EmbeddingSettings, reason: str
) -> ResolvedModel[Embeddings]:
    def build() -> Embeddings:
        from graphrag_neo4j.llm.offline.multilingual import MultilingualEmbeddings

        return MultilingualEmbeddings(threads=embedding.threads)

    return ResolvedModel(
        LazyModel(_recipe("offline-multilingual", embedding), build),
        f"offline numpy: {MULTILINGUAL.name}, {MULTILINGUAL.dimension} dimensions ({reason})",
    )


def _openai_embeddings(embedding: EmbeddingSettings, reason: str) -> ResolvedModel[Embeddings]:
    name = embedding.model or DEFAULT_OPENAI_EMBEDDING_MODEL
    key = _openai_key("embedding", embedding.api_key, embedding.base_url)

    def build() -> Embeddings:
        from langchain_openai import OpenAIEmbeddings

        return OpenAIEmbeddings(
            model=name,
            openai_api_key=key,
            openai_api_base=embedding.base_url,
            # tiktoken pre-splitting only fits OpenAI's own models, not other servers' tokenizers.
            check_embedding_ctx_length=embedding.base_url is None,
        )

    return ResolvedModel(LazyModel(_recipe("openai", embedding), build),
                         f"{_served_by(embedding.base_url)}: {name} ({reason})")


def _azure_embeddings(settings: Settings, reason: str) -> ResolvedModel[Embeddings]:
    embedding = settings.embedding
    endpoint = (embedding.azure_endpoint or settings.llm.azure_endpoint
                or os.environ.get("AZURE_OPENAI_ENDPOINT"))
    version = (embedding.api_version or settings.llm.api_version
               or os.environ.get("OPENAI_API_VERSION"))
    key = embedding.api_key or settings.llm.api_key or _env_key("AZURE_OPENAI_API_KEY")
    missing = [label for label, value in (
        ("GRAPHRAG_EMBEDDING__MODEL (the deployment)", embedding.model),
        ("AZURE_OPENAI_ENDPOINT", endpoint),
        ("OPENAI_API_VERSION", version),
        ("AZURE_OPENAI_API_KEY", key),
    ) if not value]
    if missing:
        raise ConfigError(
            f"The azure embedding provider is missing {', '.join(missing)}; set them."
        )

    def build() -> Embeddings:
        from langchain_openai import AzureOpenAIEmbeddings

        return AzureOpenAIEmbeddings(
            deployment=embedding.model, azure_endpoint=endpoint, openai_api_version=version,
            openai_api_key=key,
        )

    # The LLM section's endpoint, version and key stand in for the embedding section's.
    return ResolvedModel(
        LazyModel(_recipe("azure", embedding, settings.llm), build),
        f"azure: deployment {embedding.model} at {endpoint} ({reason})",
    )
