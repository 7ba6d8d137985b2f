"""Provider resolution: auto picks openai with a key, else offline; errors name the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_openai import AzureChatOpenAI, ChatOpenAI, OpenAIEmbeddings

from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings
from graphrag_neo4j.llm.offline.llm import LocalLlamaChatModel
from graphrag_neo4j.llm.providers import resolve_embeddings, resolve_llm
from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.settings import Settings

# langchain-openai opens (never connects) a socket to probe TCP options while building its
# client; pytest-socket blocks it, langchain-openai falls back, and only a warning remains.
pytestmark = pytest.mark.filterwarnings("ignore:A test tried to use socket.socket")


@pytest.fixture(autouse=True)
def _no_provider_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT",
                 "OPENAI_API_VERSION"):
        monkeypatch.delenv(name, raising=False)


def _settings(tmp_path: Path, **overrides: object) -> Settings:
    return Settings(cache_dir=tmp_path, **overrides)  # type: ignore[arg-type]


def _gguf(tmp_path: Path) -> Path:
    path = tmp_path / "model.gguf"
    path.write_bytes(b"GGUF")  # never loaded: the engine starts on the first call
    return path


def test_auto_without_a_key_is_the_local_model(tmp_path: Path) -> None:
    resolved = resolve_llm(_settings(tmp_path, llm={"gguf_path": _gguf(tmp_path)}))
    assert isinstance(resolved.model, LocalLlamaChatModel)
    assert resolved.description.startswith("local llama.cpp:")
    assert resolved.description.endswith("(no OPENAI_API_KEY)")


def test_auto_with_openai_api_key_is_openai(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    resolved = resolve_llm(_settings(tmp_path))
    assert isinstance(resolved.model, ChatOpenAI)
    assert resolved.model.model_name == "gpt-4o-mini"
    assert resolved.model.max_retries == 0  # LLMCaller owns the retries
    assert resolved.description == "openai: gpt-4o-mini (OPENAI_API_KEY is set)"
    embeddings = resolve_embeddings(_settings(tmp_path))
    assert isinstance(embeddings.model, OpenAIEmbeddings)
    assert "text-embedding-3-small" in embeddings.description


def test_a_key_for_the_llms_own_server_leaves_the_embedder_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    settings = _settings(tmp_path, llm={"base_url": "http://host/v1"})
    llm = resolve_llm(settings)
    assert isinstance(llm.model, ChatOpenAI)
    assert llm.description.startswith("OpenAI-compatible http://host/v1")
    embeddings = resolve_embeddings(settings)
    assert isinstance(embeddings.model, MiniLMEmbeddings)
    assert embeddings.description.endswith("(OPENAI_API_KEY is the key of llm.base_url's server)")
    # The embedding section's own settings still choose OpenAI.
    chosen = _settings(tmp_path, llm={"base_url": "http://host/v1"},
                       embedding={"provider": "openai"})
    assert isinstance(resolve_embeddings(chosen).model, OpenAIEmbeddings)


def test_resolving_builds_no_model_and_its_recipe_holds_no_key(tmp_path: Path) -> None:
    settings = _settings(tmp_path, llm={"provider": "openai", "api_key": "sk-secret-1"},
                         embedding={"provider": "openai", "api_key": "sk-secret-2"})
    for resolved in (resolve_llm(settings), resolve_embeddings(settings)):
        assert not resolved.source.built
        assert "sk-secret" not in json.dumps(resolved.source.recipe)
    offline = _settings(tmp_path, llm={"gguf_path": _gguf(tmp_path)})
    assert not resolve_llm(offline).source.built
    assert not resolve_embeddings(offline).source.built


def test_openai_compatible_base_url_needs_no_key(tmp_path: Path) -> None:
    settings = _settings(tmp_path, llm={"base_url": "http://127.0.0.1:11434/v1", "model": "qwen"})
    resolved = resolve_llm(settings)
    assert isinstance(resolved.model, ChatOpenAI)
    assert resolved.description == (
        "OpenAI-compatible http://127.0.0.1:11434/v1: qwen (base_url configured)"
    )


def test_openai_chat_models_ask_for_stream_usage_on_clients_of_their_own(
    tmp_path: Path
) -> None:
    settings = _settings(tmp_path, llm={"base_url": "http://127.0.0.1:11434/v1", "model": "q"})
    first, second = resolve_llm(settings).model, resolve_llm(settings).model
    assert isinstance(first, ChatOpenAI) and isinstance(second, ChatOpenAI)
    assert first.stream_usage is True  # langchain-openai asks only OpenAI's own URL otherwise
    # A shared pooled client would carry connections of one engine's event loop to another's.
    assert first.root_async_client._client is not second.root_async_client._client


def test_explicit_openai_without_a_key_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        resolve_llm(_settings(tmp_path, llm={"provider": "openai"}))
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        resolve_embeddings(_settings(tmp_path, embedding={"provider": "openai"}))


def test_azure_lists_what_is_missing_then_resolves(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"AZURE_ENDPOINT.*API_VERSION"):
        resolve_llm(_settings(tmp_path, llm={"provider": "azure", "model": "gpt4",
                                             "api_key": "k"}))
    settings = _settings(tmp_path, llm={
        "provider": "azure", "model": "gpt4", "api_key": "k",
        "azure_endpoint": "https://example.openai.azure.com", "api_version": "2024-06-01",
    })
    resolved = resolve_llm(settings)
    assert isinstance(resolved.model, AzureChatOpenAI)
    assert resolved.description.startswith("azure: deployment gpt4 at https://example")


def test_a_missing_gguf_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        resolve_llm(_settings(tmp_path, llm={"provider": "local",
                                             "gguf_path": tmp_path / "absent.gguf"}))


def test_local_model_takes_its_shape_from_settings(tmp_path: Path) -> None:
    settings = _settings(tmp_path, llm={"provider": "local", "gguf_path": _gguf(tmp_path),
                                        "n_ctx": 4096, "n_threads": 3, "temperature": 0.2,
                                        "max_tokens": 77})
    model = resolve_llm(settings).model
    assert isinstance(model, LocalLlamaChatModel)
    assert (model.n_ctx, model.n_threads, model.temperature, model.max_tokens) == (
        4096, 3, 0.2, 77)
    assert resolve_llm(settings).description.endswith("(provider=local)")


def test_auto_embeddings_without_a_key_are_offline(tmp_path: Path) -> None:
    resolved = resolve_embeddings(_settings(tmp_path))
    assert isinstance(resolved.model, MiniLMEmbeddings)
    assert resolved.description == (
        "offline onnxruntime: all-MiniLM-L6-v2-int8, 384 dimensions (no OPENAI_API_KEY)"
    )


def test_offline_multilingual_embeddings_are_chosen_by_name(tmp_path: Path) -> None:
    from graphrag_neo4j.llm.offline.multilingual import MultilingualEmbeddings

    resolved = resolve_embeddings(_settings(tmp_path, embedding={
        "provider": "offline-multilingual", "threads": 3}))
    assert isinstance(resolved.model, MultilingualEmbeddings) and resolved.model.threads == 3
    assert resolved.description == ("offline numpy: universal-sentence-encoder-multilingual-v3,"
                                    " 512 dimensions (provider=offline-multilingual)")
