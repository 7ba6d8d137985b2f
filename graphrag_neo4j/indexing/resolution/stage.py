"""The resolution stage: look up stored entities, group mentions, let the LLM decide the rest."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from graphrag_neo4j.database.lucene import shared_word_query
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.records import ChunkExtraction, normalize_name
from graphrag_neo4j.indexing.resolution.aliases import AliasScope, fold_aliases
from graphrag_neo4j.indexing.resolution.decisions import MergeDecider, Resolution, surface_merges
from graphrag_neo4j.indexing.resolution.grouping import (
    ExistingEntity,
    group_mentions,
    near_duplicate_groups,
)
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.settings import ExtractionSettings

FULLTEXT_LIMIT = 5
LOOKUP_BATCH = 2000


@dataclass(frozen=True)
class ResolvingStage:
    """Maps every mention of a batch to an entity id, recording each merge."""

    store: Store
    settings: ExtractionSettings
    embedder: EmbeddingCaller
    llm: LLMCaller | None = None
    prompts_dir: Path | None = None
    fold_aliases: bool = False  # the extraction method's capability (`folds_aliases`)

    async def resolve(
        self, extractions: Sequence[ChunkExtraction], scope: AliasScope | None = None
    ) -> Resolution:
        """Exact-name grouping always; type conflicts and near-duplicates when an LLM is there.

        A method that folds aliases (fast extraction) folds unambiguous ones per document
        instead; it needs `scope`: where each name occurs, over the batch or the whole input.
        """
        mentions = [m for extraction in extractions for m in extraction.entities]
        keys = sorted({normalize_name(m.name) for m in mentions})
        existing = await self._stored_with_keys(keys)
        deciding = self.settings.resolution and self.llm is not None
        if deciding:
            existing += await self._stored_near(keys, {e.id for e in existing})
        grouping = group_mentions(mentions, existing)
        if not deciding or self.llm is None:
            resolution = Resolution(grouping.protos, grouping.assignment, surface_merges(grouping))
            fast = self.settings.fast
            if self.fold_aliases and scope is not None:
                resolution.vetoed = await self._vetoed(keys)
                fold_aliases(resolution, scope, fast.alias_types, fast.alias_opening_types)
            return resolution
        protos = list(grouping.protos.values())
        vectors = await self.embedder.embed([p.name for p in protos])
        embeddings = {p.id: v for p, v in zip(protos, vectors, strict=True)}
        near = near_duplicate_groups(protos, embeddings, self.settings.resolution_similarity)
        vetoed = await self._vetoed(keys)
        return await MergeDecider(self.llm, self.prompts_dir).resolve(grouping, near, vetoed)

    async def _vetoed(self, keys: list[str]) -> set[tuple[str, str]]:
        """Merges a user undid, as (normalised name, entity id) pairs."""
        rows = await asyncio.to_thread(
            self.store.read, "indexing/merges/find_vetoed_merges", keys=keys
        )
        return {(row["from_key"], row["into_id"]) for row in rows}

    async def _stored_with_keys(self, keys: list[str]) -> list[ExistingEntity]:
        found: list[ExistingEntity] = []
        for start in range(0, len(keys), LOOKUP_BATCH):
            rows = await asyncio.to_thread(
                self.store.read,
                "indexing/entities/find_entities_by_name_key",
                keys=keys[start : start + LOOKUP_BATCH],
            )
            found.extend(ExistingEntity(**row) for row in rows)
        return found

    async def _stored_near(self, keys: list[str], known: set[str]) -> list[ExistingEntity]:
        queries = [{"text": q} for q in map(shared_word_query, keys) if q]
        if not queries:
            return []
        rows = await asyncio.to_thread(
            self.store.read,
            "indexing/entities/search_entity_names",
            queries=queries,
            limit=FULLTEXT_LIMIT,
        )
        unique = {row["id"]: row for row in rows if row["id"] not in known}
        return [ExistingEntity(**row) for row in unique.values()]
