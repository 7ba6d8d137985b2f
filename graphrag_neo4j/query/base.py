"""The query seam: the services a method uses, the method contract, a query, and its answer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import ValidationError

from graphrag_neo4j.errors import InputError
from graphrag_neo4j.query.context import CommunitySelection, Row, SearchContext, recent_turns
from graphrag_neo4j.settings import (
    SearchSettings,
    Settings,
    merged_search,
    search_overrides,
    search_setting_names,
)

if TYPE_CHECKING:
    from graphrag_neo4j.llm.calls import LLMCaller
    from graphrag_neo4j.llm.embedding_calls import EmbeddingCaller
    from graphrag_neo4j.llm.streaming import TokenSink

# Options a query takes besides [search] settings; `level` is global.community_level's short name.
QUERY_OPTIONS = ("response_type", "history", "on_token", "mentions", "level")
# A number given for a search setting at query time stays in this range: a negative count or
# one past any graph's size is a mistake, and Neo4j would refuse it mid-query.
MAX_OPTION_NUMBER = 1_000_000


class GraphReader(Protocol):
    """The part of `Store` searches use: named reads, and row writes for lazy reports."""

    def read(self, name: str, **params: Any) -> list[Row]:
        """The rows of cypher/NAME.cypher run in a read transaction."""
        ...

    def write_rows(self, name: str, rows: Sequence[Mapping[str, Any]], **params: Any) -> int:
        """Send rows to the UNWIND statement cypher/NAME.cypher, batched."""
        ...


class Services(Protocol):
    """What a query method uses; `GraphRAG` provides it (members resolve lazily)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> GraphReader: ...

    @property
    def llm(self) -> LLMCaller: ...

    @property
    def embedder(self) -> EmbeddingCaller: ...


@dataclass(frozen=True)
class Query:
    """One question with its validated per-query settings and conversation."""

    question: str
    search: SearchSettings
    response_type: str
    history: tuple[tuple[str, str], ...] = ()
    on_token: TokenSink | None = None
    mentions: tuple[str, ...] | None = None
    notes: tuple[str, ...] = ()  # for the answer: e.g. an option given by its deprecated name

    def with_search(self, **updates: Any) -> Query:
        """The same query with some search settings changed (validated), e.g.
        `with_search(hops={"final_k": 5})`."""
        search, notes = validated_search(self.search, updates)
        return replace(self, search=search, notes=(*self.notes, *notes))


def validated_search(
    base: SearchSettings,
    overrides: Mapping[str, Any],
    kind: str = "search setting",
    options: Sequence[str] = (),
) -> tuple[SearchSettings, list[str]]:
    """`base` with `overrides` (nested, dotted or by old flat names) applied and validated like
    the settings file, and a deprecation line per old name. An unknown name or a bad value is
    refused in one sentence calling it a `kind`; an unknown one's lists the settings and the
    `options` the caller takes besides them."""
    table, notes, unknown = search_overrides(overrides)
    if unknown:
        allowed = ", ".join(dict.fromkeys([*options, *search_setting_names()]))
        raise InputError(f"Unknown {kind} {', '.join(unknown)}: use one of {allowed}.")
    _check_numbers(table, kind)
    try:
        return SearchSettings.model_validate(merged_search(base, table)), notes
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise InputError(f"Invalid {kind} ({problems}).") from None


def _check_numbers(table: Mapping[str, Any], kind: str, prefix: str = "") -> None:
    """Refuse an overriding number below 0 or above MAX_OPTION_NUMBER, naming it."""
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            _check_numbers(value, kind, f"{name}.")
        elif isinstance(value, int | float) and not isinstance(value, bool) and not (
            0 <= value <= MAX_OPTION_NUMBER
        ):
            raise InputError(f"Invalid {kind} {name}: {value!r} is out of range; give a number"
                             f" from 0 to {MAX_OPTION_NUMBER:,}.")


def _checked_mentions(mentions: Any) -> tuple[str, ...] | None:
    """The question's mentions as given: a list of names, or None."""
    if mentions is None:
        return None
    if isinstance(mentions, list | tuple) and all(isinstance(m, str) for m in mentions):
        return tuple(mentions)
    raise InputError("Invalid query option mentions: give a list of names, e.g."
                     ' ["Scrooge", "Marley"].')


def _checked_response_type(response_type: Any) -> str | None:
    if response_type is None or isinstance(response_type, str):
        return response_type
    raise InputError("Invalid query option response_type: give a text, e.g."
                     ' "Single Sentence".')


def check_question(question: str) -> None:
    """Refuse an empty or blank question before anything is loaded for it."""
    if not question.strip():
        raise InputError("The question is empty: pass the question as the first argument.")


def make_query(settings: Settings, question: str, **options: Any) -> Query:
    """The one way options become a Query: known names only, every value validated."""
    check_question(question)
    if options.get("level") is not None:
        options["global.community_level"] = options.pop("level")
    options.pop("level", None)
    response_type = _checked_response_type(options.pop("response_type", None))
    history = options.pop("history", None) or ()
    on_token = options.pop("on_token", None)
    mentions = _checked_mentions(options.pop("mentions", None))
    search, notes = validated_search(settings.search, options, "query option", QUERY_OPTIONS)
    return Query(
        question=question,
        search=search,
        response_type=response_type or search.response_type,
        history=tuple(recent_turns(list(_turns(history)), search.history_tokens)),
        on_token=on_token,
        mentions=mentions,
        notes=tuple(notes),
    )


def _turns(history: Any) -> tuple[tuple[str, str], ...]:
    """Earlier turns as (role, text) pairs; anything else is refused in one sentence."""
    try:
        return tuple((str(role), str(text)) for role, text in history)
    except (TypeError, ValueError):
        raise InputError(
            "Invalid query option history: give a list of (role, text) pairs,"
            ' e.g. [["user", "Who is Scrooge?"], ["assistant", "A miser."]].'
        ) from None


@dataclass
class Answer:
    """What a query returns: the text, the context it read, notes, and what it cost."""

    text: str
    method: str
    context: str = ""
    sources: dict[str, list[Row]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    selection: CommunitySelection | None = None
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # Grounding (query.grounding): the mode applied ("" = not checked) and the named entities
    # of the model's answer found nowhere in its context or question (kept in `flag` mode,
    # their sentences removed in `drop` mode).
    grounding: str = ""
    unsupported_entities: list[str] = field(default_factory=list)
    # Answer check (query.answer_check): why the answer cannot answer its question ("gives no
    # date or time, which the question asks for"), "" when it may or was not checked.
    misfit: str = ""
    # The retrieved text the answer rests on when `context` holds model-written text (global
    # search's map points): grounding checks names against it and the graph's entity names
    # instead. None = the context and its rows are the evidence.
    evidence: str | None = None

    @classmethod
    def from_context(cls, method: str, text: str, context: SearchContext) -> Answer:
        """An answer (empty text for retrieval only) carrying the context's tables and notes."""
        return cls(
            text=text,
            method=method,
            context=context.text,
            sources=context.sources,
            notes=list(context.notes),
            selection=context.selection,
        )


class QueryMethod(Protocol):
    """One query method: a context builder, an answer over it, optionally a document ranking.

    `name` is how users and the registry call it; `description` is one sentence on what it is
    good for, written for an agent choosing a method. Capabilities: `streams` (answer tokens
    reach `query.on_token`), `needs_llm` (building the context calls the LLM with default
    settings, not only the answer), `ranks_documents`.
    """

    name: str
    description: str
    streams: bool
    needs_llm: bool
    ranks_documents: bool

    async def build_context(self, query: Query) -> SearchContext:
        """Retrieval only: the data the answer prompt would read."""
        ...

    async def answer(self, query: Query) -> Answer:
        """Build the context and answer from it."""
        ...

    async def rank_documents(self, query: Query, k: int) -> list[str]:
        """The top-k document ids this method retrieves (for recall evaluation)."""
        ...

    def close(self) -> None:
        """Release what the method holds (the engine calls this once, on close)."""
        ...


class MethodFactory(Protocol):
    """A query method's class: its name and description, and a new instance over services."""

    name: str
    description: str

    def __call__(self, services: Services) -> QueryMethod:
        """A new instance of the method."""
        ...
