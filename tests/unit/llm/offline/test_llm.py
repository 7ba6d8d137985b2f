"""The llama.cpp chat model's pure parts: stream folding, errors, results (no model loaded)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from graphrag_neo4j.llm.offline.llm import (
    LocalLlamaChatModel,
    _absorb,
    _chat_result,
    _error_sentence,
    _Reply,
)
from graphrag_neo4j.runtime.errors import ModelError


def test_stream_chunks_fold_into_text_finish_reason_and_usage() -> None:
    reply = _Reply()
    chunks: list[dict[str, Any]] = [
        {"choices": [{"delta": {"role": "assistant", "content": None}}]},
        {"choices": [{"delta": {"content": "<entity>"}}]},
        {"choices": [{"delta": {"content": "</entity>"}}]},
        {"choices": [{"delta": {}, "finish_reason": "stop"}]},
        {"choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 4},
         "timings": {"predicted_per_second": 20.0}},
    ]
    for chunk in chunks:
        _absorb(reply, chunk)
    assert reply.text == "<entity></entity>"
    assert reply.finish_reason == "stop"
    result = _chat_result(reply, "model.gguf")
    message = result.generations[0].message
    assert isinstance(message, AIMessage)
    assert message.content == "<entity></entity>"
    assert message.usage_metadata == {"input_tokens": 12, "output_tokens": 4, "total_tokens": 16}
    assert message.response_metadata["timings"] == {"predicted_per_second": 20.0}


def test_an_error_chunk_is_kept() -> None:
    reply = _Reply()
    _absorb(reply, {"error": {"code": 400, "message": "bad"}})
    assert reply.error == {"code": 400, "message": "bad"}


def test_context_overflow_names_the_setting() -> None:
    sentence = _error_sentence(
        {"type": "exceed_context_size_error", "n_prompt_tokens": 9000, "n_ctx": 8192}, "m.gguf"
    )
    assert "9000 tokens" in sentence and "GRAPHRAG_LLM__N_CTX" in sentence


def test_a_missing_model_file_is_a_model_error(tmp_path: Path) -> None:
    model = LocalLlamaChatModel(model_path=tmp_path / "absent.gguf")
    with pytest.raises(ModelError, match="does not exist"):
        model.invoke("hello")


def test_identity_leaves_out_threads() -> None:
    one = LocalLlamaChatModel(model_path=Path("m.gguf"), n_threads=1)
    two = LocalLlamaChatModel(model_path=Path("m.gguf"), n_threads=2)
    assert one._identifying_params == two._identifying_params
    assert one.parallel_calls == 1


def test_repeat_penalty_is_sent_and_part_of_the_identity() -> None:
    mild = LocalLlamaChatModel(model_path=Path("m.gguf"), repeat_penalty=1.1)
    off = LocalLlamaChatModel(model_path=Path("m.gguf"), repeat_penalty=1.0)
    assert mild._identifying_params != off._identifying_params
    request = mild._request([HumanMessage(content="hi")], None, {})
    assert request["repeat_penalty"] == 1.1
    assert request["repeat_last_n"] == mild.repeat_last_n


class _ScriptedEngine:
    """Stands in for llama.cpp: streams fixed pieces through the same callback path."""

    def chat(
        self, request: dict[str, Any], cancel: object, on_text: Any = None
    ) -> _Reply:
        reply = _Reply()
        for piece in ("Red", ", blue", "."):
            _absorb(reply, {"choices": [{"delta": {"content": piece}}]})
            if on_text is not None:
                on_text(piece)
        _absorb(reply, {"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 3}})
        return reply


async def test_astream_yields_pieces_then_usage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("graphrag_neo4j.llm.offline.llm._engine_for",
                        lambda *_: _ScriptedEngine())
    model = LocalLlamaChatModel(model_path=Path("m.gguf"))
    chunks = [chunk async for chunk in model.astream("colours?")]
    contents = [c.content for c in chunks]
    assert contents[:3] == ["Red", ", blue", "."] and set(contents[3:]) == {""}
    whole = chunks[0]
    for chunk in chunks[1:]:
        whole = whole + chunk
    assert whole.content == "Red, blue."
    assert whole.usage_metadata == {"input_tokens": 5, "output_tokens": 3, "total_tokens": 8}


def test_threads_do_not_spin_and_default_to_the_free_cores(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import xllamacpp

    from graphrag_neo4j.llm.offline import llm as offline_llm

    loaded: list[Any] = []
    monkeypatch.setattr(xllamacpp, "Server", lambda params: loaded.append(params))
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    monkeypatch.setattr(offline_llm, "free_cores", lambda: 3)
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF")
    offline_llm._engine_for(model, 512, 0, 0)
    offline_llm._engine_for(model, 512, 3, 40)
    (auto, explicit) = loaded
    assert [auto.cpuparams.n_threads, auto.cpuparams_batch.n_threads] == [3, 3]  # the free ones
    assert [auto.cpuparams.poll, auto.cpuparams_batch.poll] == [0, 0]
    assert (explicit.cpuparams.n_threads, explicit.cpuparams.poll) == (3, 40)


def test_the_settings_default_lets_idle_threads_sleep() -> None:
    from graphrag_neo4j.settings import LLMSettings

    assert LLMSettings().cpu_poll == 0 and LLMSettings().n_threads == 0
