"""Context budgets fitted to a local model's window, so prompt, data and answer all fit."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel

from graphrag_neo4j.llm.providers import local_llm_chosen
from graphrag_neo4j.settings import Settings

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
    """`settings` with every data budget cut to what the window leaves for it."""
    # The conversation history rides along in every answer prompt, beside the data.
    answer_room = (window - settings.llm.max_tokens - PROMPT_OVERHEAD_TOKENS
                   - settings.search.history_tokens)
    report_room = window - settings.communities.report_max_tokens - PROMPT_OVERHEAD_TOKENS
    search = settings.search
    fitted_search = search.model_copy(update={
        "passage_context_tokens": _cap(search.passage_context_tokens, answer_room),
        "local": _capped(search.local, ("context_tokens",), answer_room),
        "global_": _capped(search.global_, ("map_batch_tokens", "reduce_tokens"), answer_room),
        "drift": _capped(
            search.drift, ("primer_tokens", "followup_tokens", "reduce_tokens"), answer_room
        ),
    })
    communities = settings.communities.model_copy(update={
        "report_max_input_tokens": _cap(settings.communities.report_max_input_tokens,
                                        report_room),
    })
    return settings.model_copy(update={"search": fitted_search, "communities": communities})


def _capped(section: SectionT, names: tuple[str, ...], room: int) -> SectionT:
    """A copy of a settings section with the named token budgets cut to `room`."""
    return section.model_copy(update={name: _cap(getattr(section, name), room) for name in names})


def _cap(wanted: int, room: int) -> int:
    return min(wanted, max(SMALLEST_BUDGET, room))
