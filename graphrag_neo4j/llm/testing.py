"""Fakes for tests (ours and users'): a rule-based chat model and a bag-of-words embedder."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
)
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, PrivateAttr

Reply = str | Callable[[str], str]
Rule = tuple[str | re.Pattern[str], Reply]

_WORD = re.compile(r"\w+", re.UNICODE)


class UnmatchedPromptError(LookupError):
    """FakeChatModel received a prompt that none of its rules match."""


@dataclass(frozen=True)
class FakeCall:
    """One prompt the fake received and what it answered."""

    prompt: str
    reply: str


def _matches(pattern: str | re.Pattern[str], prompt: str) -> bool:
    if isinstance(pattern, re.Pattern):
        return pattern.search(prompt) is not None
    return pattern in prompt


class FakeChatModel(BaseChatModel):
    """A chat model that answers by prompt pattern; the first matching rule wins.

    A rule is (pattern, reply): a plain string matches as a substring, a compiled regex with
    `search`; the reply is a string or a function of the whole prompt (all messages joined by
    blank lines). A prompt that no rule matches raises UnmatchedPromptError, so a test never
    passes on an answer nobody wrote. A reply function may raise to simulate API errors.

        model = FakeChatModel(rules=[
            ("Extract entities", "<entity><name>Euler</name><type>person</type></entity>"),
            (re.compile(r"summar(y|ize)", re.I), lambda prompt: "A short summary."),
        ])
        assert model.invoke("Extract entities from: ...").content.startswith("<entity>")
        assert len(model.calls) == 1
    """

    rules: list[Rule] = Field(default_factory=list)
    model_name: str = "fake-chat-model"
    latency_s: float = 0.0
    """Seconds each async call sleeps before answering (for timeout and concurrency tests)."""
    calls: list[FakeCall] = Field(default_factory=list)
    _in_flight: int = PrivateAttr(default=0)
    _max_in_flight: int = PrivateAttr(default=0)

    @property
    def _llm_type(self) -> str:
        return "fake-chat-model"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    @property
    def max_in_flight(self) -> int:
        """The most async calls that were ever running at the same time."""
        return self._max_in_flight

    def answer(self, prompt: str) -> str:
        """The reply of the first rule matching `prompt`; records the call."""
        for pattern, reply in self.rules:
            if _matches(pattern, prompt):
                text = reply(prompt) if callable(reply) else reply
                self.calls.append(FakeCall(prompt, text))
                return text
        head = prompt[:300].replace("\n", "\\n")
        raise UnmatchedPromptError(
            f"FakeChatModel has no rule for the prompt starting with {head!r} "
            f"({len(self.rules)} rules tried); add a rule whose pattern matches it."
        )

    def get_num_tokens_from_messages(
        self, messages: list[BaseMessage], tools: Any = None  # noqa: ARG002
    ) -> int:
        """The prompt tokens this fake reports as usage: the words of the joined messages."""
        return len(_WORD.findall("\n\n".join(message.text for message in messages)))

    def _result(self, messages: list[BaseMessage]) -> ChatResult:
        prompt = "\n\n".join(message.text for message in messages)
        text = self.answer(prompt)
        prompt_tokens = self.get_num_tokens_from_messages(messages)
        completion_tokens = len(_WORD.findall(text))
        usage = UsageMetadata(input_tokens=prompt_tokens, output_tokens=completion_tokens,
                              total_tokens=prompt_tokens + completion_tokens)
        message = AIMessage(content=text, usage_metadata=usage,
                            response_metadata={"model_name": self.model_name})
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,  # noqa: ARG002
        run_manager: CallbackManagerForLLMRun | None = None,  # noqa: ARG002
        **kwargs: Any,  # noqa: ARG002
    ) -> ChatResult:
        if self.latency_s:
            time.sleep(self.latency_s)
        return self._result(messages)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,  # noqa: ARG002
        run_manager: AsyncCallbackManagerForLLMRun | None = None,  # noqa: ARG002
        **kwargs: Any,  # noqa: ARG002
    ) -> ChatResult:
        self._in_flight += 1
        self._max_in_flight = max(self._max_in_flight, self._in_flight)
        try:
            if self.latency_s:
                await asyncio.sleep(self.latency_s)
            return self._result(messages)
        finally:
            self._in_flight -= 1


def _features(text: str) -> list[tuple[str, float]]:
    """Lower-cased words (weight 1) and their character trigrams (weight 0.3)."""
    features: list[tuple[str, float]] = []
    for word in _WORD.findall(text.lower()):
        features.append(("w:" + word, 1.0))
        padded = f"#{word}#"
        features.extend(("c:" + padded[i : i + 3], 0.3) for i in range(len(padded) - 2))
    return features


class FakeEmbeddings(Embeddings):
    """Deterministic hashed bag of words: texts sharing words get closer vectors.

    Each lower-cased word and its character trigrams are hashed into `dimension` buckets with
    a hashed sign, then the vector is L2-normalised, so cosine similarity tracks word overlap
    (and shared word parts, e.g. "Bernoulli" / "Bernoullis"). No model, no network.

        embedder = FakeEmbeddings(dimension=64)
        euler, basel, cake = embedder.embed_documents(["Euler in Basel", "Basel", "cake"])
        assert sum(a * b for a, b in zip(euler, basel)) > sum(a * b for a, b in zip(euler, cake))
    """

    def __init__(self, dimension: int = 384) -> None:
        if dimension < 1:
            raise ValueError("FakeEmbeddings needs a dimension of at least 1.")
        self.dimension = dimension
        self.model_name = f"fake-hashed-bow-{dimension}"

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.dimension
        for feature, weight in _features(text):
            digest = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest())
            sign = 1.0 if digest >> 63 else -1.0
            vector[digest % self.dimension] += sign * weight
        norm = math.sqrt(sum(value * value for value in vector))
        if norm == 0.0:
            # Vector indexes reject all-zero vectors; give empty text a fixed unit vector.
            vector[0] = 1.0
            return vector
        return [value / norm for value in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text."""
        return [self._vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        """The same vector a document with this text gets."""
        return self._vector(text)


class RecordingEmbeddings(FakeEmbeddings):
    """FakeEmbeddings that keep every document text they were asked to embed, in order."""

    def __init__(self, dimension: int = 384) -> None:
        super().__init__(dimension)
        self.texts: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text, each text recorded."""
        self.texts += texts
        return super().embed_documents(texts)


_NAME = re.compile(r"\b[A-Z][a-z]{3,}(?: [A-Z][a-z]+)*")
_EXTRACTION_TEXT = re.compile(r"Text:\n(.*)\n\nOutput:\s*$", re.DOTALL)
_NAMES_PER_CHUNK = 6


def _extract_names(prompt: str) -> str:
    """Capitalised names of the prompt's text as concepts, consecutive ones as triplets."""
    match = _EXTRACTION_TEXT.search(prompt)
    names = list(dict.fromkeys(_NAME.findall(match.group(1) if match else "")))
    names = names[:_NAMES_PER_CHUNK]
    records = [f"<concept><name>{n}</name><type>concept</type><description>{n} appears in "
               "the text.</description></concept>" for n in names]
    records += [f"<triplet><subject>{a}</subject><predicate>appears with</predicate><object>{b}"
                f"</object><description>{a} and {b} appear together.</description>"
                "<strength>5</strength></triplet>" for a, b in itertools.pairwise(names)]
    return "\n".join(records)


def _report(prompt: str) -> str:
    first = re.search(r"^[0-9a-f]{8,}\|([^|]+)\|", prompt, flags=re.MULTILINE)
    title = first.group(1) if first else "Community"
    return json.dumps({"title": f"About {title}", "summary": f"A community around {title}.",
                       "rating": 5, "rating_explanation": "Scripted.",
                       "findings": [{"summary": title, "explanation": "Scripted finding."}]})


def pipeline_fake_llm(latency_s: float = 0.0) -> FakeChatModel:
    """A FakeChatModel that answers every indexing prompt of the shipped templates.

    Extraction returns the text's capitalised names (linked in order), gleaning says nothing
    is missing, resolution merges nothing, summaries keep the first words, and reports are
    valid JSON: enough for an end-to-end run on any English text without a model.
    """
    return FakeChatModel(latency_s=latency_s, rules=[
        ("Missing records:", "<done/>"),
        ("may or may not name the same", json.dumps({"merges": []})),
        ("Combine their descriptions", lambda p: "Summary: " + " ".join(p.split()[-40:])),
        ("You write briefing reports", _report),
        (_EXTRACTION_TEXT, _extract_names),
    ])
