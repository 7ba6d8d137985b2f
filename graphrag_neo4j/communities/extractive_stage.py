"""Gives every community an extractive title, summary and embedding at build time, no LLM."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graphrag_neo4j.communities.context import TokenCounter
from graphrag_neo4j.communities.extractive import (
    RATING_EXPLANATION,
    STATUS,
    Extract,
    Member,
    NameFinder,
    Sentence,
    SentencePool,
    extract,
)
from graphrag_neo4j.communities.report_stage import embedding_text
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.runtime.progress import StageProgress
from graphrag_neo4j.settings import CommunitySettings

READ_STAGE = "read descriptions"
SUMMARY_STAGE = "extractive summaries"
EMBED_STAGE = "community embeddings"
STORE_STAGE = "store summaries"
EMBED_SLICE = 256
Row = dict[str, Any]


@dataclass
class ExtractiveCounts:
    """What the extractive stage wrote, left alone, and which LLM reports it kept."""

    written: int = 0
    unchanged: int = 0
    reports_kept: int = 0
    vectors_kept: int = 0  # written, but the title and summary its vector encodes unchanged


@dataclass(frozen=True)
class GraphText:
    """The members and the description sentences of the clustered graph, read once."""

    members: dict[str, Member]
    sentences: list[Sentence]


def read_graph_text(store: Store) -> GraphText:
    """Clustered entities and every description sentence, with the entities it concerns."""
    entities = list(store.stream("communities/build/stream_member_entities"))
    members = {str(r["id"]): Member(str(r["id"]), str(r["name"]), int(r["degree"]))
               for r in entities}
    pool = SentencePool(NameFinder((m.id, m.name) for m in members.values()))
    for row in entities:
        pool.add(str(row["description"]), [str(row["id"])])
    for row in store.stream("communities/reports/stream_relation_descriptions"):
        pool.add(str(row["description"]), [str(row["source_id"]), str(row["target_id"])])
    return GraphText(members, list(pool.sentences.values()))


def summarize_level(
    text: GraphText,
    communities: Mapping[str, frozenset[str]],
    settings: CommunitySettings,
    count: Callable[[str], int],
) -> dict[str, Extract]:
    """The extracts of one level's communities (each entity sits in at most one of them)."""
    community_of = {e: cid for cid, members in communities.items() for e in members}
    candidates: dict[str, list[Sentence]] = defaultdict(list)
    for sentence in text.sentences:
        for cid in {community_of[e] for e in sentence.entities if e in community_of}:
            candidates[cid].append(sentence)
    return {
        cid: extract([text.members[e] for e in members if e in text.members],
                     candidates[cid], settings.extractive_sentences,
                     settings.extractive_max_tokens, count)
        for cid, members in communities.items()
    }


def summarize_all(
    text: GraphText,
    members: Mapping[str, frozenset[str]],
    levels: Mapping[int, Sequence[str]],
    settings: CommunitySettings,
    advance: Callable[[int], None],
    encoding: str,
) -> dict[str, Extract]:
    """Every community's extract, level by level (blocking: run it in a thread)."""
    count = TokenCounter(encoding)
    extracts: dict[str, Extract] = {}
    for ids in levels.values():
        extracts |= summarize_level(text, {cid: members[cid] for cid in ids}, settings, count)
        advance(len(ids))
    return extracts


def plan_rows(extracts: Mapping[str, Extract], state: Sequence[Row], counts: ExtractiveCounts
              ) -> list[Row]:
    """Rows for the communities whose extract must be (re)written or whose hash must be kept.

    An LLM report stays while its community's extract is unchanged; once the extract changes
    the report is out of date and the extract takes its place (rewritten later or lazily).
    Reports from before extracts were hashed stay and only get the hash.
    """
    stored = {str(r["id"]): r for r in state}
    rows = []
    for cid, found in extracts.items():
        row = stored.get(cid, {})
        status, old_hash = row.get("report_status"), row.get("extractive_hash")
        is_report = status not in (None, STATUS)
        if old_hash == found.hash and (is_report or row.get("embedded")):
            counts.reports_kept += is_report
            counts.unchanged += not is_report
            continue
        replace = not is_report or old_hash is not None
        keep_embedding = replace and _same_embedded_text(row, found)
        counts.reports_kept += not replace
        counts.written += replace
        counts.vectors_kept += keep_embedding
        rows.append({"id": cid, "extractive_hash": found.hash, "replace": replace,
                     "keep_embedding": keep_embedding,
                     "title": found.title, "summary": found.summary,
                     "full_content": found.full_content,
                     "rating_explanation": RATING_EXPLANATION, "embedding": None})
    return rows


def _same_embedded_text(stored: Row, found: Extract) -> bool:
    """Whether a stored extract's vector encodes the new extract's text: its members may have
    changed (the hash covers them), its title and summary not."""
    return (bool(stored.get("embedded")) and stored.get("report_status") == STATUS
            and embedding_text(str(stored.get("title")), str(stored.get("summary")))
            == embedding_text(found.title, found.summary))


async def write_extracts(
    store: Store,
    settings: CommunitySettings,
    encoding: str,
    members: Mapping[str, frozenset[str]],
    levels: Mapping[int, Sequence[str]],
    embedder: EmbeddingCaller | None,
    progress: StageProgress,
) -> ExtractiveCounts:
    """Compute every community's extract, then store and embed the ones that changed."""
    counts = ExtractiveCounts()
    with progress.stage(READ_STAGE, add_total=1) as advance:
        text = await asyncio.to_thread(read_graph_text, store)
        state = await asyncio.to_thread(store.read, "communities/reports/list_extractive_state")
        advance(1)
    with progress.stage(SUMMARY_STAGE, add_total=len(members)) as advance:
        extracts = await asyncio.to_thread(
            summarize_all, text, members, levels, settings, advance, encoding
        )
        rows = plan_rows(extracts, state, counts)
    replaced = [row for row in rows if row["replace"] and not row["keep_embedding"]]
    if embedder is not None:  # a build that writes reports embeds what they leave, later
        with progress.stage(EMBED_STAGE, add_total=len(replaced)) as advance:
            await _embed_rows(embedder, replaced, advance)
    with progress.stage(STORE_STAGE, add_total=len(rows)) as advance:
        await asyncio.to_thread(
            store.write_rows, "communities/reports/set_extractive_summaries", rows, on_batch=advance
        )
    return counts


async def _embed_rows(embedder: EmbeddingCaller, rows: list[Row],
                      advance: Callable[[int], None]) -> None:
    """Give each row the vector of its title and summary, a slice at a time for the bar."""
    for start in range(0, len(rows), EMBED_SLICE):
        part = rows[start : start + EMBED_SLICE]
        vectors = await embedder.embed([embedding_text(r["title"], r["summary"]) for r in part])
        for row, vector in zip(part, vectors, strict=True):
            row["embedding"] = vector
        advance(len(part))


async def embed_unreported_extracts(store: Store, embedder: EmbeddingCaller | None,
                                    progress: StageProgress) -> int:
    """Embed the extracts no report replaced (a build that wrote reports left them without a
    vector, as their reports would have replaced it); how many."""
    rows = await asyncio.to_thread(store.read, "communities/reports/list_unembedded_extracts")
    if embedder is None or not rows:
        return 0
    with progress.stage(EMBED_STAGE, add_total=len(rows)) as advance:
        await _embed_rows(embedder, rows, advance)
    await asyncio.to_thread(store.write_rows, "communities/reports/set_community_embeddings",
                            [{"id": r["id"], "embedding": r["embedding"]} for r in rows])
    return len(rows)
