"""What a failed LLM call means: worth retrying or not, and the one sentence it ends in.

The call path imports this module (and openai with it) on its first request that the cache
does not answer.
"""

from __future__ import annotations

import json

import openai

from graphrag_neo4j.settings import LLMSettings


def is_rate_limit(exc: BaseException) -> bool:
    """Whether the provider refused the call for too many requests or tokens (HTTP 429)."""
    return isinstance(exc, openai.RateLimitError) or getattr(exc, "status_code", None) == 429


def is_transient(exc: BaseException) -> bool:
    """Rate limits, timeouts, connection drops, 5xx and garbled replies (a proxy's error page
    instead of JSON) are worth retrying; the rest is not, nor a 429 for a spent quota."""
    if getattr(exc, "code", None) == "insufficient_quota":  # OpenAI's 429 that waiting won't fix
        return False
    if isinstance(exc, TimeoutError | openai.APIConnectionError | openai.RateLimitError):
        return True
    if isinstance(exc, json.JSONDecodeError | openai.APIResponseValidationError):
        return True
    if isinstance(exc, openai.InternalServerError):
        return True
    # Other providers' SDKs carry the HTTP status the same way.
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and (status == 429 or status >= 500)


def failure_sentence(exc: BaseException, stage: str, attempts: int, settings: LLMSettings
                     ) -> str | None:
    """The sentence a call ends in when it still failed after its retries or was rejected;
    None for an error that is not the provider's (it propagates as it is)."""
    if is_transient(exc):
        return _gave_up_sentence(exc, stage, attempts, settings)
    if isinstance(exc, openai.APIStatusError):
        return _rejected_sentence(exc, stage)
    return None


def _rejected_sentence(exc: openai.APIStatusError, stage: str) -> str:
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        fix = "check OPENAI_API_KEY / GRAPHRAG_LLM__API_KEY"
    elif getattr(exc, "code", None) == "insufficient_quota":
        fix = "add credit to the account or use another key"
    elif isinstance(exc, openai.NotFoundError):
        fix = "check GRAPHRAG_LLM__MODEL and GRAPHRAG_LLM__BASE_URL"
    else:
        fix = "check the model settings and that the prompt fits the model's context"
    return f"The LLM API rejected a {stage} request ({exc.status_code}: {exc.message}); {fix}."


def _gave_up_sentence(exc: BaseException, stage: str, attempts: int, settings: LLMSettings) -> str:
    if isinstance(exc, TimeoutError):
        return (
            f"The LLM call for {stage} timed out after {settings.timeout_s:g} s on all "
            f"{attempts} attempts; raise GRAPHRAG_LLM__TIMEOUT_S or use a faster model."
        )
    if isinstance(exc, json.JSONDecodeError | openai.APIResponseValidationError):
        return (
            f"The LLM endpoint sent a malformed reply (not the OpenAI JSON) for {stage} on all"
            f" {attempts} attempts; check that GRAPHRAG_LLM__BASE_URL ({settings.base_url})"
            " points at an OpenAI-compatible API."
        )
    if isinstance(exc, openai.APIConnectionError | ConnectionError) and not isinstance(
        exc, openai.APITimeoutError
    ):
        return (
            f"The LLM endpoint {settings.base_url or 'of the provider'} could not be reached for"
            f" {stage} on all {attempts} attempts ({type(exc).__name__}: {exc}); check that it"
            " is running and that GRAPHRAG_LLM__BASE_URL points at it."
        )
    # Only a rate limit is eased by fewer calls at once.
    fix = ("lower GRAPHRAG_LLM__CONCURRENCY or retry later"
           if isinstance(exc, openai.RateLimitError) else "retry later")
    return (
        f"The LLM call for {stage} still failed after {attempts} attempts "
        f"({type(exc).__name__}: {exc}); {fix}."
    )
