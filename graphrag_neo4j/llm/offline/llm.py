"""A LangChain chat model running a GGUF file in-process with llama.cpp (xllamacpp)."""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult

from graphrag_neo4j.llm.offline.cores import free_cores
from graphrag_neo4j.runtime.errors import ModelError
from graphrag_neo4j.settings import LLMSettings, setting_default

_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


class GenerationCancelledError(Exception):
    """The caller gave up (timeout or cancellation) and generation was stopped early."""


@dataclass
class _Reply:
    """What one chat completion produced."""

    text: str = ""
    finish_reason: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    error: dict[str, Any] | None = None


class _Engine:
    """One loaded model; llama.cpp work is serialised by a lock."""

    def __init__(self, model_path: Path, n_ctx: int, n_threads: int, poll: int = 0) -> None:
        import xllamacpp

        params = xllamacpp.CommonParams()
        params.model.path = str(model_path)
        params.n_ctx = n_ctx
        params.n_parallel = 1
        for cpu in (params.cpuparams, params.cpuparams_batch):
            cpu.n_threads = n_threads
            # llama.cpp's threads spin (poll 50 of 100) between steps; beside another busy
            # program that burns the cores the other threads need, collapsing throughput.
            cpu.poll = poll
        params.verbosity = 1  # errors only: llama.cpp's info lines would flood the terminal
        # The embedded server also listens on a random loopback port; a random key keeps
        # other local users from borrowing it.
        self._api_key = secrets.token_hex(16)
        params.api_keys = [self._api_key]
        try:
            self._server = xllamacpp.Server(params)
        except Exception as exc:
            raise ModelError(
                f"llama.cpp could not load {model_path} ({exc}); check that it is a GGUF "
                "chat model, or unset GRAPHRAG_LLM__GGUF_PATH to use the offline default."
            ) from exc
        self.lock = threading.Lock()

    def count_tokens(self, messages: list[dict[str, str]]) -> int:
        """Prompt tokens of these messages, exactly as a chat call would count them."""
        from graphrag_neo4j.llm.offline.tokens import count_chat_tokens

        return count_chat_tokens(self._server.listening_address, self._api_key, messages)

    def chat(
        self,
        request: dict[str, Any],
        cancel: threading.Event | None,
        on_text: Callable[[str], None] | None = None,
    ) -> _Reply:
        """Run one streamed chat completion, stopping early when `cancel` is set."""
        reply = _Reply()

        def on_chunk(chunk: dict[str, Any]) -> bool:
            piece = _absorb(reply, chunk)
            if piece and on_text is not None:
                on_text(piece)
            return bool(cancel is not None and cancel.is_set()) or reply.error is not None

        payload = {**request, "stream": True, "stream_options": {"include_usage": True}}
        with self.lock:
            self._server.handle_chat_completions(payload, on_chunk)
        if cancel is not None and cancel.is_set():
            raise GenerationCancelledError
        return reply


def _absorb(reply: _Reply, chunk: dict[str, Any]) -> str:
    """Fold one streamed chunk (delta, finish reason, usage or error) into `reply`; returns
    the new text."""
    if "error" in chunk:
        reply.error = chunk["error"]
        return ""
    piece = ""
    for choice in chunk.get("choices") or []:
        content = (choice.get("delta") or {}).get("content")
        if content:
            piece += content
            reply.text += content
        if choice.get("finish_reason"):
            reply.finish_reason = choice["finish_reason"]
    if chunk.get("usage"):
        reply.usage = chunk["usage"]
    if chunk.get("timings"):
        reply.timings = chunk["timings"]
    return piece


_engines: dict[tuple[str, int, int, int], _Engine] = {}
_engines_lock = threading.Lock()


def _engine_for(model_path: Path, n_ctx: int, n_threads: int, poll: int = 0) -> _Engine:
    """The process-wide engine of this model file and shape, loaded on first use."""
    n_threads = n_threads if n_threads > 0 else free_cores()
    key = (str(model_path.resolve()), n_ctx, n_threads, poll)
    with _engines_lock:
        engine = _engines.get(key)
        if engine is None:
            if not model_path.is_file():
                raise ModelError(
                    f"GGUF file {model_path} does not exist; fix GRAPHRAG_LLM__GGUF_PATH or "
                    "unset it to use the offline default model."
                )
            engine = _Engine(model_path, n_ctx, n_threads, poll)
            _engines[key] = engine
        return engine


def _to_openai_messages(messages: list[BaseMessage]) -> list[dict[str, str]]:
    converted = []
    for message in messages:
        role = _ROLES.get(message.type, "user")
        converted.append({"role": role, "content": message.text})
    return converted


class LocalLlamaChatModel(BaseChatModel):
    """Chat with a local GGUF model through llama.cpp, applying the model's chat template.

    One model instance per (file, n_ctx, n_threads) is loaded per process and shared by all
    instances of this class; calls to it are serialised.

        model = LocalLlamaChatModel(model_path=Path("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"))
        print(model.invoke("Name three primes.").content)
    """

    model_path: Path
    # The [llm] settings' defaults, for a model built without settings.
    n_ctx: int = setting_default(LLMSettings, "n_ctx")
    n_threads: int = setting_default(LLMSettings, "n_threads")  # 0: the cores free at load
    cpu_poll: int = setting_default(LLMSettings, "cpu_poll")
    temperature: float = setting_default(LLMSettings, "temperature")
    max_tokens: int = setting_default(LLMSettings, "max_tokens")
    repeat_penalty: float = setting_default(LLMSettings, "repeat_penalty")
    repeat_last_n: int = 128

    @property
    def _llm_type(self) -> str:
        return "llama.cpp"

    @property
    def parallel_calls(self) -> int:
        """How many calls can usefully run at once: one, the engine serialises them."""
        return 1

    @property
    def _identifying_params(self) -> dict[str, Any]:
        # n_threads changes speed, not answers, so it stays out of the cache identity.
        return {
            "model_name": self.model_path.name,
            "n_ctx": self.n_ctx,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "repeat_penalty": self.repeat_penalty,
            "repeat_last_n": self.repeat_last_n,
        }

    def get_num_tokens_from_messages(
        self, messages: list[BaseMessage], tools: Any = None  # noqa: ARG002
    ) -> int:
        """Prompt tokens with the model's own chat template and tokenizer (loads the model)."""
        engine = _engine_for(self.model_path, self.n_ctx, self.n_threads)
        return engine.count_tokens(_to_openai_messages(messages))

    def _request(
        self, messages: list[BaseMessage], stop: list[str] | None, kwargs: dict[str, Any]
    ) -> dict[str, Any]:
        request: dict[str, Any] = {
            "messages": _to_openai_messages(messages),
            "max_tokens": kwargs.get("max_tokens", self.max_tokens),
            "temperature": kwargs.get("temperature", self.temperature),
            # Greedy decoding of a small model loops on one record without a mild penalty.
            "repeat_penalty": kwargs.get("repeat_penalty", self.repeat_penalty),
            "repeat_last_n": self.repeat_last_n,
        }
        if stop:
            request["stop"] = stop
        return request

    def _run(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None,
        kwargs: dict[str, Any],
        cancel: threading.Event | None,
        on_text: Callable[[str], None] | None = None,
    ) -> ChatResult:
        engine = _engine_for(self.model_path, self.n_ctx, self.n_threads, self.cpu_poll)
        reply = engine.chat(self._request(messages, stop, kwargs), cancel, on_text)
        if reply.error is not None:
            raise ModelError(_error_sentence(reply.error, self.model_path.name))
        return _chat_result(reply, self.model_path.name)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,  # noqa: ARG002
        **kwargs: Any,
    ) -> ChatResult:
        return self._run(messages, stop, kwargs, None)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,  # noqa: ARG002
        **kwargs: Any,
    ) -> ChatResult:
        cancel = threading.Event()
        work: Callable[[], ChatResult] = lambda: self._run(messages, stop, kwargs, cancel)  # noqa: E731
        try:
            return await asyncio.to_thread(work)
        except asyncio.CancelledError:
            # A timeout upstream: stop the token loop so the lock frees for the retry.
            cancel.set()
            raise

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        """Tokens as llama.cpp writes them; a last empty chunk carries usage and timings."""
        loop = asyncio.get_running_loop()
        pieces: asyncio.Queue[str | None] = asyncio.Queue()
        cancel = threading.Event()

        def push(piece: str | None) -> None:
            loop.call_soon_threadsafe(pieces.put_nowait, piece)

        def work() -> ChatResult:
            try:
                return self._run(messages, stop, kwargs, cancel, push)
            finally:
                push(None)  # end of stream, also after an error

        task = asyncio.ensure_future(asyncio.to_thread(work))
        # A consumer that stops early cancels generation; its exception is then of no interest.
        task.add_done_callback(lambda done: done.cancelled() or done.exception())
        try:
            while (piece := await pieces.get()) is not None:
                chunk = ChatGenerationChunk(message=AIMessageChunk(content=piece))
                if run_manager is not None:
                    await run_manager.on_llm_new_token(piece, chunk=chunk)
                yield chunk
            final = (await task).generations[0].message
        except BaseException:
            cancel.set()
            raise
        yield ChatGenerationChunk(message=AIMessageChunk(
            content="", usage_metadata=getattr(final, "usage_metadata", None),
            response_metadata=final.response_metadata,
        ))


def _error_sentence(error: dict[str, Any], model_name: str) -> str:
    message = str(error.get("message", error))
    if error.get("type") == "exceed_context_size_error":
        return (
            f"The prompt ({error.get('n_prompt_tokens')} tokens) does not fit the context of "
            f"{model_name} ({error.get('n_ctx')} tokens); raise GRAPHRAG_LLM__N_CTX or use "
            "smaller chunks."
        )
    return f"llama.cpp failed on {model_name}: {message}; check the request and the model."


def _chat_result(reply: _Reply, model_name: str) -> ChatResult:
    prompt_tokens = int(reply.usage.get("prompt_tokens", 0))
    completion_tokens = int(reply.usage.get("completion_tokens", 0))
    usage = UsageMetadata(
        input_tokens=prompt_tokens,
        output_tokens=completion_tokens,
        total_tokens=prompt_tokens + completion_tokens,
    )
    message = AIMessage(
        content=reply.text,
        usage_metadata=usage,
        response_metadata={
            "finish_reason": reply.finish_reason,
            "model_name": model_name,
            "timings": dict(reply.timings),  # llama.cpp's own prompt/generation speeds
        },
    )
    llm_output = {"token_usage": dict(reply.usage), "model_name": model_name}
    return ChatResult(generations=[ChatGeneration(message=message)], llm_output=llm_output)
