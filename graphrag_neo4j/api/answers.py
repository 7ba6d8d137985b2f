"""Turns API input into engine calls (limits, options) and an `Answer` into JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

from starlette.exceptions import HTTPException
from starlette.responses import Response

from graphrag_neo4j.citations import cited_rows
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.base import Answer, make_query
from graphrag_neo4j.settings import ServerSettings

# Options only Python callers can give (a callback); the API streams by `stream: true`.
_PYTHON_ONLY = ("on_token",)


def checked_question(question: str, server: ServerSettings) -> str:
    """The question, refused with 413 when longer than the server allows."""
    if len(question) > server.max_question_chars:
        raise HTTPException(
            413, f"The question has {len(question):,} characters, more than the"
            f" {server.max_question_chars:,} allowed (server.max_question_chars); shorten it.",
        )
    return question


def _texts(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every string inside an option value, with where it sits (e.g. `hops.x`)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield path, str(key)
            yield from _texts(inner, f"{path}.{key}")
    elif isinstance(value, list | tuple):
        for inner in value:
            yield from _texts(inner, path)


def check_sizes(options: dict[str, Any], server: ServerSettings) -> None:
    """Refuse (413) an option text over max_option_chars or a history over max_history_chars:
    whatever reaches the model is bounded, not the question alone."""
    history = sum(len(text) for _, text in _texts(options.get("history") or [], "history"))
    if history > server.max_history_chars:
        raise HTTPException(
            413, f"The earlier turns hold {history:,} characters, more than the"
            f" {server.max_history_chars:,} allowed (server.max_history_chars); send fewer.",
        )
    for name, value in options.items():
        if name == "history":
            continue
        for where, text in _texts(value, name):
            if len(text) > server.max_option_chars:
                raise HTTPException(
                    413, f"Option {where} has {len(text):,} characters, more than the"
                    f" {server.max_option_chars:,} allowed (server.max_option_chars); shorten it.",
                )


def checked_call(
    rag: GraphRAG, question: str, method: str | None, options: dict[str, Any],
    server: ServerSettings,
) -> dict[str, Any]:
    """Validate sizes, method and options before anything runs (so a stream never starts on a
    typo); returns the options to pass on. Engine mistakes raise InputError (400)."""
    refused = [name for name in _PYTHON_ONLY if name in options]
    if refused:
        raise HTTPException(400, f"Option {refused[0]} is for Python callers; ask for"
                            " streaming with `stream: true` instead.")
    check_sizes(options, server)
    rag.query_method(method)
    make_query(rag.settings, question, **dict(options))
    return dict(options)


def jsonable(value: Any) -> Any:
    """Context rows as plain JSON (Neo4j dates and the like become strings)."""
    return json.loads(json.dumps(value, default=str))


def json_response(value: Any) -> Response:
    """`value` encoded once (FastAPI's own encoder walks a large context for milliseconds)."""
    body = json.dumps(value, default=str, ensure_ascii=False).encode()
    return Response(body, media_type="application/json")


def usage_json(answer: Answer) -> dict[str, int]:
    """What the answer cost, in the names OpenAI's `usage` uses plus the call count."""
    return {
        "llm_calls": answer.llm_calls,
        "prompt_tokens": answer.prompt_tokens,
        "completion_tokens": answer.completion_tokens,
        "total_tokens": answer.prompt_tokens + answer.completion_tokens,
    }


def answer_json(answer: Answer, with_context: bool = True) -> dict[str, Any]:
    """An answer with its citations, notes, community selection, usage and (optionally) the
    context it read: the prompt text and the rows of each table (values as Neo4j gave them:
    encode with `json_response`, or `jsonable` for plain JSON)."""
    shown: dict[str, Any] = {
        "answer": answer.text,
        "method": answer.method,
        "citations": answer.citations or cited_rows(answer),
        "notes": answer.note_texts(),
        "note_kinds": [str(note.kind) for note in answer.notes],
        "selection": asdict(answer.selection) if answer.selection else None,
        "usage": usage_json(answer),
    }
    if with_context:
        shown["context"] = {"text": answer.context, "tables": answer.sources}
    return shown
