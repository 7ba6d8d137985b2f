"""A model call's failure on a worker is raised in the driver as the same exception."""

from __future__ import annotations

import pickle

import httpx2
import openai

from graphrag_neo4j.indexing.cluster.remote_failures import portable, restored
from graphrag_neo4j.llm.calls.call_errors import is_rate_limit, is_transient
from graphrag_neo4j.llm.calls.chat import _retry_after_s


def _travelled(exc: Exception) -> Exception:
    """`exc` sent from a worker to the driver, as Ray would pickle it."""
    return restored(pickle.loads(pickle.dumps(portable(exc))))


def test_a_429_arrives_as_a_429_with_its_retry_after() -> None:
    request = httpx2.Request("POST", "http://127.0.0.1:1/v1/chat/completions")
    response = httpx2.Response(429, headers={"retry-after": "2.5"}, request=request)
    limited = openai.RateLimitError("slow down", response=response, body=None)
    arrived = _travelled(limited)
    assert isinstance(arrived, openai.RateLimitError)
    assert is_rate_limit(arrived) and is_transient(arrived)
    assert _retry_after_s(arrived) == 2.5 and arrived.status_code == 429


def test_a_connection_error_and_a_plain_error_keep_their_kind() -> None:
    request = httpx2.Request("POST", "http://127.0.0.1:1/v1/chat/completions")
    dropped = _travelled(openai.APIConnectionError(message="refused", request=request))
    assert isinstance(dropped, openai.APIConnectionError) and is_transient(dropped)
    assert isinstance(_travelled(TimeoutError("slow")), TimeoutError)
    assert isinstance(_travelled(ValueError("bad")), ValueError)
