"""The spending limits `index` and `communities --build` take (--max-cost, --max-llm-calls)."""

from __future__ import annotations

from typing import Annotated

import typer

MaxCost = Annotated[
    float | None,
    typer.Option(min=0, help="Stop before the batch, report or call that could pass this many"
                 " USD (what was written stays; the same command resumes)."),
]
MaxLLMCalls = Annotated[
    int | None,
    typer.Option(min=0, help="Stop before the batch, report or call that could pass this many"
                 " LLM calls (cached replies are free)."),
]
