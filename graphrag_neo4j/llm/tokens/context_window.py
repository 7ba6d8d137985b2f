"""Context budgets fitted to a local model's window, so prompt, data and answer all fit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from graphrag_neo4j.llm.providers import local_llm_chosen
from graphrag_neo4j.settings import Settings
from graphrag_neo4j.settings.base import budget_room

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

# Instructions, question and history around the data; generous for our prompt files.
PROMPT_OVERHEAD_TOKENS = 800
SMALLEST_BUDGET = 1000
SectionT = TypeVar("SectionT", bound=BaseModel)


def model_window(settings: Settings, llm: BaseChatModel | None) -> int | None:
    """The context window of the model that will answer, when it is a local one we know."""
    if llm is not None:
        window = getattr(llm, "n_ctx", None)
        return window if isinstance(window, int) else None
    return settings.llm.n_ctx if local_llm_chosen(settings) else None


def fit_to_window(settings: Settings, window: int) -> Settings:
    """`settings` with every context budget (the fields settings mark as one) cut to what the
    window leaves for it beside its prompt and answer."""
    rooms = {
        # The conversation history rides along in every answer prompt, beside the data.
        "answer": (window - settings.llm.max_tokens - PROMPT_OVERHEAD_TOKENS
                   - settings.search.history_tokens),
        "report": window - settings.communities.report_max_tokens - PROMPT_OVERHEAD_TOKENS,
    }
    return _fitted(settings, rooms)


def _fitted(section: SectionT, rooms: Mapping[str, int]) -> SectionT:
    """A copy of a settings section with its budgets, and those of its sections, cut to fit."""
    update: dict[str, Any] = {}
    for name, info in type(section).model_fields.items():
        value = getattr(section, name)
        room = budget_room(info)
        if isinstance(value, BaseModel):
            update[name] = _fitted(value, rooms)
        elif room is not None:
            update[name] = _cap(value, rooms[room])
    return section.model_copy(update=update)


def _cap(wanted: int, room: int) -> int:
    return min(wanted, max(SMALLEST_BUDGET, room))
