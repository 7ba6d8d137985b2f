"""The answer model's ceiling in `eval answers`: a question answered from its gold passages
alone, with naive search's answer prompt, so every wrong answer there is the model's own."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from graphrag_neo4j.query.answers.passages import answer_from_context, passage_context
from graphrag_neo4j.query.base import Answer, Query, Services
from graphrag_neo4j.query.context import SearchContext
from graphrag_neo4j.runtime.errors import InputError

GOLD = "gold"
# The prompt whose reading is measured: naive search shows passages alone, as this does.
_PROMPT_OF = "naive"


@dataclass
class GoldPassages:
    """One question's gold passages as the whole context, then naive's answer call."""

    services: Services
    document_ids: Sequence[str]
    name = GOLD
    description = "The question's gold passages alone: the answer model's ceiling in an eval."
    streams = True
    needs_llm = False
    ranks_documents = False

    async def build_context(self, query: Query) -> SearchContext:
        """Every chunk of the gold documents, in the question's order, within the budget."""
        rows = await asyncio.to_thread(
            self.services.store.read, "query/chunks_of_documents", ids=list(self.document_ids)
        )
        found = {row["document_id"] for row in rows}
        if missing := [d for d in self.document_ids if d not in found]:
            raise InputError(
                f"The graph holds no passage of the gold document(s) {', '.join(missing)};"
                " index the corpus the questions were written for, or leave out --gold-context."
            )
        return passage_context(rows, query.search.passage_context_tokens)

    async def answer(self, query: Query) -> Answer:
        """Answer from the gold passages alone."""
        context = await self.build_context(query)
        answer = await answer_from_context(self.services, _PROMPT_OF, query, context)
        answer.method = self.name
        return answer

    async def rank_documents(self, query: Query, k: int) -> list[str]:  # noqa: ARG002
        """None: the passages are given, not found."""
        return []

    def close(self) -> None:
        """Nothing to release: it reads through the engine's store."""
