"""What indexing would cost, read from the input, the graph and the caches: no LLM, no writes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.costs.dependent_stages import reports_row
from graphrag_neo4j.indexing.extraction.registry import (
    check_extraction_method,
    create_extraction_method,
)
from graphrag_neo4j.indexing.input.changes import chunks_to_index, documents_to_index
from graphrag_neo4j.indexing.input.loaders import load_documents
from graphrag_neo4j.indexing.records import Chunk, Document
from graphrag_neo4j.indexing.stages import registry as stage_list
from graphrag_neo4j.indexing.stages.base import CHUNKS_ROW, EstimateInputs
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.costs.estimate import CostEstimate, Range, StageEstimate
from graphrag_neo4j.llm.costs.profile import ModelProfile
from graphrag_neo4j.llm.tokens.counting import count_tokens
from graphrag_neo4j.runtime.errors import GraphRAGError, InputError
from graphrag_neo4j.settings import ExtractionSettings, Settings

EMBEDDINGS = CHUNKS_ROW
TIME_NOTE = ("Time is model time at the configured concurrency, from this model's measured "
             "throughput; Neo4j writes and clustering come on top.")


def load_input(paths: list[Path], extraction: ExtractionSettings) -> list[Document]:
    """The documents of `paths` as a run reads them; none is one clear sentence."""
    loaded = load_documents(paths, text_field=extraction.text_field,
                            title_field=extraction.title_field)
    if loaded.documents:
        return loaded.documents
    named = ", ".join(str(p) for p in paths)
    if loaded.skipped:
        first = loaded.skipped[0]
        files = f"{len(loaded.skipped)} file{'s' if len(loaded.skipped) != 1 else ''}"
        raise InputError(
            f"Nothing to estimate: no readable document in {named} ({files} skipped; "
            f"{first.path}: {first.reason.rstrip('.')}); give files of a format"
            " docs/formats.md lists, with text in them."
        )
    raise InputError(f"Nothing to estimate: {named} holds no files; give files or folders "
                     "with documents in them.")


@dataclass
class InputPlan:
    """What a run would index: documents to (re)index and their chunks."""

    documents: int
    todo: list[Document]
    unchanged: int = 0
    changed: int = 0
    chunks: list[Chunk] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _indexed_state(open_store: Callable[[], Store], ids: list[str]
                   ) -> tuple[dict[str, dict[str, object]], str | None]:
    """The stored state of these documents, or nothing and a note when Neo4j is unreachable."""
    try:
        rows = open_store().read("indexing/documents/find_indexed_documents", ids=ids)
    except GraphRAGError as exc:
        return {}, f"Neo4j could not be read ({exc}); the estimate assumes nothing is indexed."
    return {str(row["id"]): row for row in rows}, None


def plan_input(documents: Sequence[Document], settings: Settings,
               open_store: Callable[[], Store]) -> InputPlan:
    """Which documents a run would index (as the indexer decides) and their chunks."""
    stored, note = _indexed_state(open_store, list({d.id for d in documents}))
    changes = documents_to_index(documents, stored)
    plan = InputPlan(len(changes.todo) + changes.unchanged, changes.todo, changes.unchanged,
                     len(changes.changed), notes=[note] if note else [])
    chunks, starts = chunks_to_index(changes, settings.chunking)  # half-written: what is left
    plan.chunks = [c for d in plan.todo for c in chunks[d.id][starts.get(d.id, 0):]]
    if plan.changed:
        plan.notes.append(f"{plan.changed} changed documents lose their old version first; "
                          "re-describing what they shared is not counted.")
    return plan


def embedding_stage(chunks: list[Chunk], embedder: EmbeddingCaller, profile: ModelProfile,
                    derived: Range) -> StageEstimate:
    """Chunk vectors exactly (minus cached ones), plus the vectors of what extraction finds."""
    keys = {embedder.text_key(c.text): c.text for c in chunks}
    cached = embedder.cached_keys(list(keys))
    tokens = sum(count_tokens(text) for key, text in keys.items() if key not in cached)
    note = "chunks exact, + what extraction finds"
    return profile.embedding_stage(EMBEDDINGS, Range(tokens, tokens + derived.high),
                                   cached=len(cached), note=note)


@dataclass(frozen=True)
class _EstimateServices:
    """The run's services as an estimate sees them: Neo4j opened only if a method asks."""

    settings: Settings
    open_store: Callable[[], Store]
    embedder: EmbeddingCaller
    llm: LLMCaller | None

    @property
    def store(self) -> Store:
        return self.open_store()


async def estimate_documents(
    documents: Sequence[Document],
    settings: Settings,
    open_store: Callable[[], Store],
    llm: LLMCaller,
    embedder: EmbeddingCaller,
    *,
    method: str | None = None,
    reports: bool = True,
) -> CostEstimate:
    """Per stage: calls, tokens, cost and time an `index` run of `documents` would spend
    (with `method`, by default the settings' extraction method)."""
    method = method or settings.extraction.method
    settings = settings.model_copy(update={"extraction": settings.extraction.model_copy(
        update={"method": check_extraction_method(method)})})
    plan = await asyncio.to_thread(plan_input, documents, settings, open_store)
    extraction = create_extraction_method(
        method, _EstimateServices(settings, open_store, embedder, llm))
    # A run that calls no LLM is estimated without building it (the offline one downloads).
    uses_llm = extraction.needs_llm or reports
    profile = ModelProfile.of(llm if uses_llm else None, embedder,
                              settings.embedding.price_per_1m)
    stages = await asyncio.to_thread(extraction.estimate, plan.chunks, profile)
    new_chunks = _fresh_chunks(stages, plan.chunks)
    inputs = EstimateInputs(profile, settings, new_chunks, llm_used=extraction.needs_llm)
    for stage in stage_list.AFTER_EXTRACTION:
        stages += stage.estimate(inputs)
    derived = sum((s.completion_tokens for s in stages), Range.of(0))
    stages.append(await asyncio.to_thread(embedding_stage, plan.chunks, embedder, profile,
                                          derived))
    if reports:
        stages.append(reports_row(profile, settings, new_chunks))
    notes = [*plan.notes, *_notes(profile)]
    if not reports:
        notes.append("Community reports are not counted: this run writes none now (lazy ones "
                     "are written by global search for the communities a question selects).")
    return CostEstimate(_facts(plan, profile), stages, notes)


def _fresh_chunks(rows: list[StageEstimate], chunks: list[Chunk]) -> float:
    """Chunks extraction reads afresh: its uncached calls when it asks the LLM, else all."""
    first = rows[0] if rows else None
    if first is not None and (first.calls.high or first.cached_calls):
        return first.calls.high
    return len(chunks)


def _facts(plan: InputPlan, profile: ModelProfile) -> dict[str, int | str]:
    return {
        "documents": plan.documents, "documents unchanged (skipped)": plan.unchanged,
        "documents to index": len(plan.todo), "documents changed": plan.changed,
        "chunks to index": len(plan.chunks), "model": _model_fact(profile),
        "prices": profile.prices.source if profile.prices else "unknown",
    }


def _model_fact(profile: ModelProfile) -> str:
    if profile.llm is None:
        return "(none: this run calls no LLM)"
    return profile.model_name or "(unnamed)"


def _notes(profile: ModelProfile) -> list[str]:
    notes = [TIME_NOTE]
    if profile.llm is None:
        return notes  # no LLM, so no price or timing of one to ask for
    if profile.prices is None:
        notes.append(f"No price is known for {profile.model_name or 'this model'}: set "
                     "llm.prompt_price_per_1m and llm.completion_price_per_1m for a cost.")
    if profile.throughput is None:
        notes.append("No timings of this model yet: run `graphrag-neo4j models` (a probe) or "
                     "one indexing run, and later estimates give a time.")
    return notes
