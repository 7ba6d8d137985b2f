"""The query seam: the services a method uses, the method contract, a query, and its answer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import ValidationError

from graphrag_neo4j.query.context import CommunitySelection, Row, SearchContext, recent_turns
from graphrag_neo4j.runtime.errors import InputError, check_text
from graphrag_neo4j.settings import (
    SearchSettings,
    Settings,
    merged_search,
    per_query_rule,
    search_overrides,
    search_setting_names,
)

if TYPE_CHECKING:
    from graphrag_neo4j.llm.calls.chat import LLMCaller
    from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
    from graphrag_neo4j.llm.calls.streaming import TokenSink

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


def within_settings(base: SearchSettings, search: SearchSettings, table: Mapping[str, Any],
                    kind: str = "query option") -> None:
    """Refuse an override the settings do not let a query make: a SETTINGS_ONLY setting at
    all, or a budget (any number not TUNABLE) raised past the settings' value. The settings
    are the ceiling, so a client of `serve` cannot spend more than its operator allows."""
    for section, key in _overridden(table):
        name = f"{section}.{key}" if section else key
        rule = per_query_rule(name)
        if rule == "settings_only":
            raise InputError(f"The {kind} {name} cannot be set per query: it is the settings'"
                             f" alone (search.{name}).")
        allowed, given = _value(base, section, key), _value(search, section, key)
        if rule == "budget" and _is_number(given) and given > allowed:
            raise InputError(
                f"Invalid {kind} {name}: {_shown(given)} is more than the {_shown(allowed)} the"
                f" settings allow; give at most {_shown(allowed)} (a query may lower it, not"
                f" raise it; the operator raises search.{name} in the settings)."
            )


def _overridden(table: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(section, key) of every setting a nested override table names ("" = shared)."""
    pairs: list[tuple[str, str]] = []
    for name, value in table.items():
        if isinstance(value, Mapping):
            pairs += [(name, key) for key in value]
        else:
            pairs.append(("", name))
    return pairs


def _value(search: SearchSettings, section: str, key: str) -> Any:
    owner = getattr(search, "global_" if section == "global" else section) if section else search
    return getattr(owner, key)


def _shown(number: float) -> str:
    """1,000,000 and 10 rather than 1e+06 and 10.0."""
    return f"{int(number):,}" if float(number).is_integer() else f"{number:g}"


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _checked_mentions(mentions: Any, most: int) -> tuple[str, ...] | None:
    """The question's mentions as given: a list of at most `most` names (repeats dropped),
    or None. Checked before any work: a long list is refused, never processed."""
    if mentions is None:
        return None
    if not (isinstance(mentions, list | tuple) and all(isinstance(m, str) for m in mentions)):
        raise InputError("Invalid query option mentions: give a list of names, e.g."
                         ' ["Scrooge", "Marley"].')
    if len(mentions) > most:
        raise InputError(f"Invalid query option mentions: {len(mentions):,} names, more than"
                         f" the {most} search.hops.max_mentions allows; give fewer.")
    return tuple(dict.fromkeys(mentions))


def with_search_settings(settings: Settings, overrides: Mapping[str, Any]) -> Settings:
    """`settings` with [search] overrides its operator chose (`eval answers`' equal budgets):
    validated like the settings file, and the new ceiling of every query's options."""
    search, _ = validated_search(settings.search, overrides)
    return settings.model_copy(update={"search": search})


def _checked_response_type(response_type: Any) -> str | None:
    if response_type is None or isinstance(response_type, str):
        return response_type
    raise InputError("Invalid query option response_type: give a text, e.g."
                     ' "Single Sentence".')


def check_question(question: str) -> None:
    """Refuse an empty, blank or undecodable question before anything is loaded for it."""
    check_text(question, "question")
    if not question.strip():
        raise InputError("The question is empty: pass the question as the first argument.")


def make_query(settings: Settings, question: str, **options: Any) -> Query:
    """The one way options become a Query: known names only, every value validated."""
    check_question(question)
    check_text(options, "query option")
    if options.get("level") is not None:
        options["global.community_level"] = options.pop("level")
    options.pop("level", None)
    response_type = _checked_response_type(options.pop("response_type", None))
    history = options.pop("history", None) or ()
    on_token = options.pop("on_token", None)
    mentions = options.pop("mentions", None)
    search, notes = validated_search(settings.search, options, "query option", QUERY_OPTIONS)
    within_settings(settings.search, search, search_overrides(options)[0])
    return Query(
        question=question,
        search=search,
        response_type=response_type or search.response_type,
        history=tuple(recent_turns(list(_turns(history)), search.history_tokens)),
        on_token=on_token,
        mentions=_checked_mentions(mentions, search.hops.max_mentions),
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


class NoteKind(StrEnum):
    """What a note on an answer is about; clients pick notes by kind, never by their words."""

    INFO = "info"  # how the answer was found: what the context read, a fallback taken
    EVIDENCE = "evidence"  # the passages an evidence-first reply quoted before answering
    # Warnings about the answer itself (not how it was found), shown with the answer text.
    NAMES_UNSUPPORTED = "names_unsupported"
    NAMES_REMOVED = "names_removed"
    NAMES_UNCHECKED = "names_unchecked"
    ANSWER_CHECK = "answer_check"
    CITATIONS_REPAIRED = "citations_repaired"
    ANSWER_LOOPED = "answer_looped"


# A citation the context lacks is a warning too: a document may have been written to make the
# model invent it.
WARNING_KINDS = frozenset({
    NoteKind.NAMES_UNSUPPORTED, NoteKind.NAMES_REMOVED, NoteKind.NAMES_UNCHECKED,
    NoteKind.ANSWER_CHECK, NoteKind.CITATIONS_REPAIRED, NoteKind.ANSWER_LOOPED,
})


@dataclass(frozen=True)
class Note:
    """A note on an answer: its kind (what code reads) and its text (what a reader reads)."""

    kind: NoteKind
    text: str

    @classmethod
    def info(cls, text: str) -> Note:
        """A note on how the answer was found."""
        return cls(NoteKind.INFO, text)

    @property
    def warns(self) -> bool:
        """Whether the note warns about the answer itself."""
        return self.kind in WARNING_KINDS


@dataclass
class Answer:
    """What a query returns: the text, the context it read, notes, and what it cost."""

    text: str
    method: str
    context: str = ""
    sources: dict[str, list[Row]] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    selection: CommunitySelection | None = None
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # Grounding (query.answers.grounding): the mode applied ("" = not checked) and the named
    # entities of the model's answer found nowhere in its context or question (kept in `flag`
    # mode, their sentences removed in `drop` mode).
    grounding: str = ""
    unsupported_entities: list[str] = field(default_factory=list)
    # Answer check (query.answers.shape): why the answer cannot answer its question ("gives no
    # date or time, which the question asks for"), "" when it may or was not checked.
    misfit: str = ""
    # The retrieved text the answer rests on when `context` holds model-written text (global
    # search's map points): grounding checks names against it and the graph's entity names
    # instead. None = the context and its rows are the evidence.
    evidence: str | None = None
    # The rows the text cites, in order, as data (citations.cited_rows): table, ref, ids, and for
    # a passage its document, file, page or section and span (query.answers.source_places).
    citations: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_context(cls, method: str, text: str, context: SearchContext) -> Answer:
        """An answer (empty text for retrieval only) carrying the context's tables and notes."""
        return cls(
            text=text,
            method=method,
            context=context.text,
            sources=context.sources,
            notes=[Note.info(text) for text in context.notes],
            selection=context.selection,
        )

    def note_texts(self) -> list[str]:
        """The notes' texts, in order."""
        return [note.text for note in self.notes]

    def warnings(self) -> list[str]:
        """The texts of the notes that warn about the answer itself: names its context lacks
        (flagged or removed), names left unchecked, the answer check's misfit, a citation
        repaired, a loop cut."""
        return [note.text for note in self.notes if note.warns]

    def as_json(self) -> dict[str, Any]:
        """The answer as JSON data; `notes` stay texts (as before kinds existed) and
        `note_kinds` gives each one's kind, in the same order."""
        data = asdict(self)
        data["notes"] = self.note_texts()
        data["note_kinds"] = [str(note.kind) for note in self.notes]
        return data


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
