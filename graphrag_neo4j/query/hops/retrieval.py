"""What one hops retrieval found: its hits, candidates and rankings, and the LLM rounds' marks."""

from __future__ import annotations

from dataclasses import dataclass, field

from graphrag_neo4j.query.context import Row
from graphrag_neo4j.query.hops.rerank import Candidate, Rerank


@dataclass
class HopsRetrieval:
    """Everything one hops retrieval found: `blended_order` ranks chunks without the LLM,
    `chunk_order` is the final ranking (the reranker's choices first when it ran, the
    follow-up's passages after the first ones when it ran)."""

    mentions: list[str]
    entity_hits: list[Row]
    relation_hits: list[Row]
    candidates: list[Candidate]
    blended_order: list[str]
    document_of: dict[str, str]
    chunk_order: list[str] = field(default_factory=list)
    nearest: list[Row] = field(default_factory=list)
    chosen: list[Candidate] = field(default_factory=list)
    rerank: Rerank | None = None
    follow_up: str = ""
    follow_up_added: list[str] = field(default_factory=list)
    rerank_added: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Passage rows (id, title, text) already read, by chunk id: the follow-up's, for the answer.
    texts: dict[str, Row] = field(default_factory=dict)
