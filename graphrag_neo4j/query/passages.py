"""What naive and hops search share: per-query overrides, passage tables and the answer call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from graphrag_neo4j.query.context import Row, SearchContext, TableBuilder, history_block
from graphrag_neo4j.records import Answer
from graphrag_neo4j.resources import load_prompt
from graphrag_neo4j.settings import SearchSettings

if TYPE_CHECKING:
    from graphrag_neo4j.engine import GraphRAG

# Neo4j's HNSW vector indexes miss true neighbours when asked for very few (naive Recall@5 on
# MuSiQue: 57.0 asking for 5, 60.3 asking for 100 = the exact search), so searches ask for at
# least this many and keep their k best.
ANN_MIN_CANDIDATES = 100


def ann_candidates(k: int) -> int:
    """How many neighbours to ask a vector index for, to get k right."""
    return max(k, ANN_MIN_CANDIDATES)


def with_overrides(settings: SearchSettings, overrides: Mapping[str, Any]) -> SearchSettings:
    """The search settings with per-query values applied, validated like the settings file."""
    unknown = set(overrides) - set(SearchSettings.model_fields)
    if unknown:
        raise ValueError(f"unknown search settings: {', '.join(sorted(unknown))}")
    return SearchSettings.model_validate({**settings.model_dump(), **overrides})


def documents_in_order(passages: Sequence[Row]) -> list[str]:
    """Distinct document ids in the order their passages rank."""
    return list(dict.fromkeys(str(row["document_id"]) for row in passages))


def passages_table(passages: Sequence[Row], budget_tokens: int) -> TableBuilder:
    """The `-----Sources-----` table: one numbered passage a row, as many as the budget holds."""
    table = TableBuilder("Sources", ["title", "text"], budget_tokens)
    table.fill(passages, lambda row: (row.get("title", ""), row["text"]))
    return table


def passage_context(
    passages: Sequence[Row], budget_tokens: int, extra: Mapping[str, list[Row]] | None = None
) -> SearchContext:
    """A context of ranked passages (all of them count for recall, the prompt gets what fits)."""
    table = passages_table(passages, budget_tokens)
    return SearchContext(
        text=table.render(),
        sources={**(extra or {}), "Sources": table.rows},
        ranked_document_ids=documents_in_order(passages),
    )


async def answer_call(
    rag: GraphRAG,
    method: str,
    question: str,
    context: SearchContext,
    response_type: str | None,
    history: Sequence[tuple[str, str]] | None,
    calls_before: tuple[int, int, int],
) -> Answer:
    """One answer call over the context; the Answer counts every LLM call since `calls_before`."""
    prompt = load_prompt(f"{method}_answer", rag.settings.prompts_dir).format(
        response_type=response_type or rag.settings.search.response_type,
        history=history_block(history),
        context=context.text or "(nothing found)",
        question=question,
    )
    text = await rag.llm.complete(prompt, stage=f"{method}_answer")
    calls, prompt_tokens, completion_tokens = usage_totals(rag)
    return Answer(
        text=text,
        method=method,
        context=context.text,
        sources=context.sources,
        llm_calls=calls - calls_before[0],
        prompt_tokens=prompt_tokens - calls_before[1],
        completion_tokens=completion_tokens - calls_before[2],
    )


def usage_totals(rag: GraphRAG) -> tuple[int, int, int]:
    """LLM calls, prompt tokens and completion tokens spent so far by this engine."""
    total = rag.llm.usage.total()
    return total.calls, total.prompt_tokens, total.completion_tokens
