"""Which community reports a build writes: all now, lazily at question time, or none."""

from __future__ import annotations

from typing import Any, Literal, Protocol, get_args

from graphrag_neo4j.runtime.errors import InputError

ReportMode = Literal["all", "lazy", "none"]
REPORT_MODES: tuple[str, ...] = get_args(ReportMode)


class DocumentReader(Protocol):
    """The read the choice needs (a `Store`)."""

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """The rows of a named read statement."""
        ...


def checked_mode(value: str) -> ReportMode:
    """The mode named `value`, or one sentence naming the choices."""
    if value not in REPORT_MODES:
        raise InputError(
            f"Unknown report mode {value!r}: use --reports all, lazy or none."
        )
    return value  # type: ignore[return-value]


def choose_report_mode(store: DocumentReader, wanted: str | None) -> ReportMode:
    """`wanted`, or by default `all` when some document was indexed with LLM extraction (its
    model is at hand and the reports match it) and `lazy` for graphs built without an LLM."""
    if wanted is not None:
        return checked_mode(wanted)
    row = store.read("communities/reports/count_llm_documents")[0]
    return "all" if int(row["llm_documents"]) > 0 else "lazy"
