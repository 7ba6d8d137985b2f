"""Streaming an evidence-first reply: the reader sees the answer, the evidence goes to the notes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from graphrag_neo4j.llm.calls.streaming import TokenSink

# "Answer:" (bold or not) at the start of a line: where an evidence-first reply's answer starts
# (`passages.evidence_and_answer` splits a whole reply at it too).
ANSWER_LABEL = re.compile(r"(?:^|\n)\s*\**answer\**\s*:\**[ \t]*", re.IGNORECASE)
# Tokens are held until the label shows; past this many characters without one, the reply is
# not evidence-first and everything held flows through.
_HOLD_LIMIT = 4000


@dataclass
class AnswerOnlySink:
    """Holds streamed tokens until the reply's "Answer:" label, then passes the rest on; at the
    end, a reply without the label is passed on whole (it is all answer)."""

    sink: TokenSink
    held: str = ""
    passing: bool = field(default=False, init=False)

    def __call__(self, piece: str) -> None:
        if self.passing:
            self.sink(piece)
            return
        self.held += piece
        found = ANSWER_LABEL.search(self.held)
        # A label at the very end may still grow ("Answer" before ":"); wait for the next token.
        if found and found.end() < len(self.held):
            self._pass(self.held[found.end():])
        elif len(self.held) > _HOLD_LIMIT:
            self._pass(self.held)

    def finish(self) -> None:
        """The reply ended: what is still held (a reply without the label) is the answer."""
        if not self.passing and self.held:
            found = ANSWER_LABEL.search(self.held)
            self._pass(self.held[found.end():] if found else self.held)

    def _pass(self, text: str) -> None:
        self.passing, self.held = True, ""
        if text:
            self.sink(text)
