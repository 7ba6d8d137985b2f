"""How a call wants its reply delivered: pieces to a sink, and a rule that may stop it early.

The streaming itself is `model_requests.stream_reply`, on the model side of the call path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from graphrag_neo4j.llm.calls.reply_guards import StopRule

TokenSink = Callable[[str], None]
"""Receives pieces of an answer as the model writes them (for streaming to a terminal)."""


@dataclass(frozen=True)
class Streaming:
    """How a call wants its reply delivered: a sink for pieces and/or a rule to stop early."""

    on_token: TokenSink | None = None
    stop_when: StopRule | None = None

    @property
    def active(self) -> bool:
        """Whether the reply must be streamed rather than fetched in one piece."""
        return self.on_token is not None or self.stop_when is not None

    @property
    def rule_name(self) -> str | None:
        """A stable name of the stop rule, for cache keys."""
        if self.stop_when is None:
            return None
        return f"{self.stop_when.__module__}.{self.stop_when.__qualname__}"
