"""Re-describes each entity and relation in the style of the document that last described it.

Deletion, unmerging and the roll-back of a failed batch leave entities and relations whose
descriptions are merged again. Each document records the description style of the method that
wrote it (`DescriptionStyle.document_row`), so a fast or triplet document's entities are merged
without an LLM whatever `extraction.method` the settings name today. A document indexed before
styles were recorded takes the style of the method its `extraction_method` names (with today's
settings), or the settings' method when it names none.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.extraction.base import DescriptionStyle
from graphrag_neo4j.indexing.graph.summaries import DescriptionMerger
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.settings import Settings

# The style of a document that recorded none, from the method name it recorded (None: none).
LegacyStyle = Callable[[str | None], DescriptionStyle]
STYLE_QUERIES = {"entity": "indexing/entities/entity_document_styles",
                 "relation": "indexing/relations/relation_document_styles"}


def recorded_style(row: dict[str, Any], legacy: LegacyStyle) -> DescriptionStyle:
    """The style a document row recorded, or the legacy one when it predates the record."""
    if row["llm_summaries"] is None:
        return legacy(row["extraction_method"])
    return DescriptionStyle(row["sentences"], row["vector_words"], bool(row["llm_summaries"]))


@dataclass
class DocumentStyles:
    """Chooses the merger of each entity or relation from its documents' recorded styles.

    `llm` is called only when a style lets the LLM summarise, so a graph of fast or triplet
    documents never resolves (nor loads) a model.
    """

    settings: Settings
    llm: Callable[[], LLMCaller | None]
    legacy: LegacyStyle
    _mergers: dict[DescriptionStyle, DescriptionMerger] = field(default_factory=dict)

    def merger(self, style: DescriptionStyle) -> DescriptionMerger:
        """The merger of one style (built once)."""
        if style not in self._mergers:
            summarising = style.llm_summaries and style.sentences is None
            llm = self.llm() if summarising else None
            self._mergers[style] = DescriptionMerger.from_settings(llm, self.settings, style)
        return self._mergers[style]

    async def choose(
        self, store: Store, kind: str, ids: list[str]
    ) -> Callable[[str], DescriptionMerger]:
        """The merger of each of `ids` (entities or relations, as `kind` says); one with no
        supporting document gets the legacy style of the settings' method."""
        rows = await asyncio.to_thread(store.read, STYLE_QUERIES[kind], ids=ids)
        chosen = {row["id"]: self.merger(recorded_style(row, self.legacy)) for row in rows}

        def pick(item_id: str) -> DescriptionMerger:
            return chosen.get(item_id) or self.merger(self.legacy(None))

        return pick
