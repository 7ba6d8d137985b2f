"""Turns settings into a LangChain chat model and embedder, saying which one and why."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import SecretStr

from graphrag_neo4j.errors import ConfigError, ModelError
from graphrag_neo4j.settings import EmbeddingSettings, LLMSettings, Settings

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings
    from langchain_core.language_models import BaseChatModel

T = TypeVar("T")

DEFAULT_OPENAI_CHAT_MODEL = "gpt-4o-mini"
DEFAULT_OPENAI_EMBEDDING_MODEL = "text-embedding-3-small"
# OpenAI-compatible local servers (Ollama, vLLM, llama.cpp) ignore the key but the client wants one.
_PLACEHOLDER_KEY = "not-needed"


@dataclass(frozen=True)
class ResolvedModel(Generic[T]):
    """A model object plus one line saying which provider/model it is and why."""

    model: T
    description: str


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


def _choose(provider: str, api_key: SecretStr | None, base_url: str | None) -> tuple[str, str]:
    """The concrete provider for `auto`, with the reason shown to the user."""
    if provider != "auto":
        return provider, f"provider={provider}"
    if api_key is not None:
        return "openai", "api_key configured"
    if base_url:
        return "openai", "base_url configured"
    if os.environ.get("OPENAI_API_KEY"):
        return "openai", "OPENAI_API_KEY is set"
    return "offline", "no OPENAI_API_KEY"


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
    from langchain_openai import ChatOpenAI

    name = llm.model or DEFAULT_OPENAI_CHAT_MODEL
    model = ChatOpenAI(
        model=name,
        api_key=_openai_key("llm", llm.api_key, llm.base_url),
        base_url=llm.base_url,
        temperature=llm.temperature,
        max_completion_tokens=llm.max_tokens,
        timeout=llm.timeout_s,
        **_client_options(),
    )
    return ResolvedModel(model, f"{_served_by(llm.base_url)}: {name} ({reason})")


def _azure_chat(llm: LLMSettings, reason: str) -> ResolvedModel[BaseChatModel]:
    from langchain_openai import AzureChatOpenAI

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
    model = AzureChatOpenAI(
        azure_deployment=llm.model,
        azure_endpoint=endpoint,
        api_version=version,
        api_key=key,
        temperature=llm.temperature,
        max_tokens=llm.max_tokens,
        timeout=llm.timeout_s,
        **_client_options(),
    )
    return ResolvedModel(model, f"azure: deployment {llm.model} at {endpoint} ({reason})")


def _local_chat(settings: Settings, reason: str) -> ResolvedModel[BaseChatModel]:
    try:
        import xllamacpp  # noqa: F401
    except ImportError as exc:
        raise ModelError(
            "The local LLM needs llama.cpp bindings; run `pip install xllamacpp`, or set "
            "OPENAI_API_KEY to use OpenAI."
        ) from exc
    from graphrag_neo4j.llm.offline.download import ensure_default_gguf
    from graphrag_neo4j.llm.offline.llm import LocalLlamaChatModel

    llm = settings.llm
    if llm.gguf_path is not None:
        if not llm.gguf_path.is_file():
            raise ConfigError(
                f"GGUF file {llm.gguf_path} does not exist; fix GRAPHRAG_LLM__GGUF_PATH or "
                "unset it to use the offline default model."
            )
        path, label = llm.gguf_path, f"local llama.cpp: {llm.gguf_path}"
    else:
        path = ensure_default_gguf(settings.cache_dir)
        label = f"offline local llama.cpp: {path.name}"
    model = LocalLlamaChatModel(
        model_path=path,
        n_ctx=llm.n_ctx,
        n_threads=llm.n_threads,
        cpu_poll=llm.cpu_poll,
        temperature=llm.temperature,
        max_tokens=llm.max_tokens,
        repeat_penalty=llm.repeat_penalty,
    )
    return ResolvedModel(model, f"{label} ({reason})")


def resolve_embeddings(settings: Settings) -> ResolvedModel[Embeddings]:
    """The embedder the settings ask for; auto = openai with a key, else offline MiniLM."""
    embedding = settings.embedding
    provider, reason = _choose(embedding.provider, embedding.api_key, embedding.base_url)
    if provider == "openai":
        return _openai_embeddings(embedding, reason)
    if provider == "azure":
        return _azure_embeddings(settings, reason)
    if provider == "offline-multilingual":
        return _multilingual_embeddings(embedding, reason)
    from graphrag_neo4j.llm.offline.embeddings import MODEL_NAME, MiniLMEmbeddings

    threads = embedding.threads
    model = MiniLMEmbeddings(threads=threads, cache_dir=settings.cache_dir,
                             long_texts=embedding.long_texts)
    return ResolvedModel(model, f"offline onnxruntime: {MODEL_NAME}, 384 dimensions ({reason})")


def _multilingual_embeddings(
    embedding: EmbeddingSettings, reason: str
) -> ResolvedModel[Embeddings]:
    from graphrag_neo4j.llm.offline.multilingual import (
        DIMENSION,
        MODEL_NAME,
        MultilingualEmbeddings,
    )

    model = MultilingualEmbeddings(threads=embedding.threads)
    return ResolvedModel(model, f"offline numpy: {MODEL_NAME}, {DIMENSION} dimensions ({reason})")


def _openai_embeddings(embedding: EmbeddingSettings, reason: str) -> ResolvedModel[Embeddings]:
    from langchain_openai import OpenAIEmbeddings

    name = embedding.model or DEFAULT_OPENAI_EMBEDDING_MODEL
    model = OpenAIEmbeddings(
        model=name,
        openai_api_key=_openai_key("embedding", embedding.api_key, embedding.base_url),
        openai_api_base=embedding.base_url,
        # tiktoken pre-splitting only fits OpenAI's own models, not other servers' tokenizers.
        check_embedding_ctx_length=embedding.base_url is None,
    )
    return ResolvedModel(model, f"{_served_by(embedding.base_url)}: {name} ({reason})")


def _azure_embeddings(settings: Settings, reason: str) -> ResolvedModel[Embeddings]:
    from langchain_openai import AzureOpenAIEmbeddings

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
    model = AzureOpenAIEmbeddings(
        deployment=embedding.model, azure_endpoint=endpoint, openai_api_version=version,
        openai_api_key=key,
    )
    return ResolvedModel(model, f"azure: deployment {embedding.model} at {endpoint} ({reason})")
