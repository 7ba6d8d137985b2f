"""What re-clustering and community reports would cost: Leiden in memory, real report prompts
rendered from the stored graph and looked up in the cache; nothing is written."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from graphrag_neo4j.communities.context import (
    TokenCounter,
    build_context,
    entity_rows,
    relation_rows,
)
from graphrag_neo4j.communities.ids import assign_ids
from graphrag_neo4j.communities.leiden import cluster_graph, read_edges
from graphrag_neo4j.communities.report_budget import (
    PromptTokens,
    first_call_tokens,
    reports_estimate,
)
from graphrag_neo4j.communities.reports import ReportWriter
from graphrag_neo4j.communities.writer import read_stored
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
from graphrag_neo4j.llm.costs.estimate import CostEstimate
from graphrag_neo4j.llm.costs.profile import ModelProfile
from graphrag_neo4j.settings import Settings

READ_BATCH = 50
REPORT_VECTORS = "report embeddings"


@dataclass
class ReportRequests:
    """Reports a run would ask the LLM for, and those the cache or the graph already holds."""

    communities: int = 0
    reused: int = 0
    too_small: int = 0  # below communities.min_report_size: never reported
    tokens: list[PromptTokens] = field(default_factory=list)

    @property
    def calls(self) -> int:
        """Reports the LLM would be asked for (their first call)."""
        return sum(t is not None for t in self.tokens)


def _groups(store: Store, settings: Settings) -> list[dict[str, Any]]:
    """Leiden on the stored graph, with the ids the real run would give each community."""
    hierarchy = cluster_graph(read_edges(store), settings.communities)
    assignment = assign_ids(hierarchy, read_stored(store))
    return [{"id": assignment.ids[key], "members": sorted(cluster.members)}
            for key, cluster in hierarchy.clusters.items()]


def report_requests(store: Store, settings: Settings, llm: LLMCaller) -> ReportRequests:
    """Render each community's report prompt as the report stage would (blocking)."""
    writer = ReportWriter(llm, settings.communities.report_max_tokens, settings.prompts_dir)
    identity, counter = writer.template_identity(), TokenCounter(settings.chunking.encoding)
    budget = settings.communities.report_max_input_tokens
    every = _groups(store, settings)
    groups = [g for g in every if len(g["members"]) >= settings.communities.min_report_size]
    result = ReportRequests(communities=len(every), too_small=len(every) - len(groups))
    for start in range(0, len(groups), READ_BATCH):
        rows = store.read(
            "communities/reports/member_contexts", groups=groups[start : start + READ_BATCH]
        )
        pending = []
        for row in rows:
            context = build_context(entity_rows(row["entities"]), relation_rows(row["relations"]),
                                    [], budget, counter)
            # As the report stage decides: a kept fallback is only retried without the cache.
            if row["content_hash"] == context.content_hash(identity) and (
                    row["report_status"] == "ok"
                    or (row["report_status"] == "fallback" and llm.cache is not None)):
                result.reused += 1
                continue
            pending.append(context.text)
        result.tokens += first_call_tokens(llm, writer, pending)
    return result


async def estimate_communities(store: Store, settings: Settings, llm: LLMCaller,
                               embedder: EmbeddingCaller) -> CostEstimate:
    """The reports a `communities --build` run would write, per the current graph."""
    requests = await asyncio.to_thread(report_requests, store, settings, llm)
    profile = ModelProfile.of(llm, embedder, settings.embedding.price_per_1m)
    reports = reports_estimate(profile, requests.tokens, settings.communities.report_max_tokens,
                               requests.reused)
    vectors = profile.embedding_stage(REPORT_VECTORS, reports.completion_tokens,
                                      note="title and summary of each new report: range")
    facts: dict[str, int | str] = {
        "communities": requests.communities, "reports reused from the graph": requests.reused,
        "reports in the LLM cache": len(requests.tokens) - requests.calls,
        "reports to write": requests.calls, "too small for a report": requests.too_small,
        "model": profile.model_name or "(unnamed)",
        "prices": profile.prices.source if profile.prices else "unknown",
    }
    notes = ["Parents whose members overflow the context budget use their children's reports;"
             " the estimate renders them from members, within the same token budget."]
    return CostEstimate(facts, [reports, vectors], notes)
