"""Grounding while an answer streams: a citation reaches the reader as `ground_answer` leaves it
in the finished text, so a streamed reply and a JSON one say the same."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from graphrag_neo4j.citations import clean_citations
from graphrag_neo4j.llm.calls.streaming import TokenSink
from graphrag_neo4j.query.answers.grounding import cited_refs
from graphrag_neo4j.query.base import Query
from graphrag_neo4j.query.context import Row

# An opening bracket with no closing one past this many characters starts no citation: the
# text held behind it flows on.
_HOLD_LIMIT = 400


@dataclass
class CitationFilter:
    """Passes streamed text on with each `[Data: ...]` cleaned against the rows the context
    showed (the same `clean_citations` the finished answer gets); a citation, and the space
    before it, is held until its closing bracket arrives. Call `finish` when the reply ends."""

    sink: TokenSink
    known: Mapping[str, set[str]] | None  # None: nothing to check, pieces pass as they come
    held: str = ""

    def __call__(self, piece: str) -> None:
        if self.known is None:
            self.sink(piece)
            return
        self.held += piece
        opening = self.held.rfind("[")
        if opening >= 0 and "]" not in self.held[opening:] \
                and len(self.held) - opening <= _HOLD_LIMIT:
            cut = opening - 1 if opening and self.held[opening - 1].isspace() else opening
        else:  # a trailing space may be the one before a citation still to come
            cut = len(self.held) - 1 if self.held[-1:].isspace() else len(self.held)
        self._pass(cut)

    def finish(self) -> None:
        """The reply ended: pass on what is held."""
        self._pass(len(self.held))

    def _pass(self, cut: int) -> None:
        text, self.held = self.held[:cut], self.held[cut:]
        if text and self.known is not None:
            self.sink(clean_citations(text, self.known))


def grounded_sink(query: Query, sources: Mapping[str, list[Row]]) -> CitationFilter | None:
    """The query's sink behind a CitationFilter over `sources`, or None when nothing streams.
    With grounding off, or no numbered rows in the context, `ground_answer` leaves citations
    alone: so does the filter."""
    if query.on_token is None:
        return None
    known = cited_refs(sources) if query.search.grounding != "off" else {}
    return CitationFilter(query.on_token, known if any(known.values()) else None)
