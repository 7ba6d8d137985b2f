"""One entry for every query method, adding what the answer cost to the Answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphrag_neo4j.errors import InputError
from graphrag_neo4j.records import Answer

if TYPE_CHECKING:
    from graphrag_neo4j.engine import GraphRAG

METHODS = ("local", "global", "hops", "naive")
RETRIEVAL_METHODS = ("local", "global", "naive")


def _usage(rag: GraphRAG) -> tuple[int, int, int]:
    total = rag.llm.usage.total()
    return total.calls, total.prompt_tokens, total.completion_tokens


async def run_query(rag: GraphRAG, method: str, question: str, **options: Any) -> Answer:
    """Answer `question` with `method`; the Answer says how many LLM calls and tokens it took."""
    if method not in METHODS:
        raise InputError(f"Unknown method {method!r}: use one of {', '.join(METHODS)}.")
    if not question.strip():
        raise InputError("The question is empty: pass the question as the first argument.")
    rag.store  # noqa: B018 (connecting first turns an absent server into one clear sentence)
    calls, prompt_tokens, completion_tokens = _usage(rag)
    answer = await _dispatch(rag, method, question, options)
    after = _usage(rag)
    answer.llm_calls = after[0] - calls
    answer.prompt_tokens = after[1] - prompt_tokens
    answer.completion_tokens = after[2] - completion_tokens
    return answer


async def _dispatch(rag: GraphRAG, method: str, question: str, options: dict[str, Any]) -> Answer:
    if method == "local":
        return await rag.local_search.answer(question, **options)
    if method == "global":
        return await rag.global_search.answer(question, **options)
    from graphrag_neo4j.query.registry import run_method

    return await run_method(rag, method, question, **options)


async def retrieve_only(rag: GraphRAG, method: str, question: str, **options: Any) -> Answer:
    """The context `method` would answer from, without the answer call (local, global, naive)."""
    if method not in RETRIEVAL_METHODS:
        raise InputError(
            f"Retrieval-only runs support {', '.join(RETRIEVAL_METHODS)}, not {method!r}."
        )
    rag.store  # noqa: B018 (connecting first turns an absent server into one clear sentence)
    if method == "global":
        found = await rag.global_search.build_context(question, **options)
        return Answer(text="", method=method, context="\n\n".join(found.batches),
                      sources={"Reports": found.reports})
    if method == "local":
        context = await rag.local_search.build_context(question, **options)
    else:
        from graphrag_neo4j.query.naive import NaiveSearch

        context = await NaiveSearch(rag).build_context(question, **options)
    return Answer(text="", method=method, context=context.text, sources=context.sources)
