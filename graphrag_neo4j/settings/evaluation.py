"""`eval answers`: how methods are compared on a question set."""

from __future__ import annotations

from pydantic import Field

from graphrag_neo4j.settings.base import Section


class EvalSettings(Section):
    """`eval answers`: how methods are compared on a question set."""

    context_tokens: int = Field(
        4000,
        ge=100,
        description="The one context token budget every method gets in `eval answers` (each"
        " method's answer, map, primer and follow-up budgets), so methods compare on equal terms.",
    )
    response_type: str = Field(
        "A short phrase: only the answer (a name, place, date or number), no sentence and no"
        " explanation",
        description="Answer shape asked for in `eval answers` when questions have gold answers"
        " (EM and F1 reward the answer alone).",
    )
    judge_model: str | None = Field(
        None,
        description="Model of the `eval answers --judge` calls, from the [llm] provider;"
        " empty = the [llm] model.",
    )
