"""The rest of indexing: chunking, communities and their reports, where map work runs."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from graphrag_neo4j.settings.base import REPORT_CONTEXT, Section


class ChunkingSettings(Section):
    """How documents are cut into overlapping windows."""

    unit: Literal["tokens", "chars"] = Field(
        "tokens", description="Measure windows in tiktoken tokens or in characters."
    )
    size: int = Field(1200, description="Window size (tokens or characters).")
    overlap: int = Field(100, description="Overlap between consecutive windows.")
    encoding: str = Field("cl100k_base", description="tiktoken encoding for token counts.")


class CommunitySettings(Section):
    """How communities are found and reported."""

    max_cluster_size: int = Field(10, description="Leiden splits communities larger than this.")
    seed: int = Field(0xDEADBEEF, description="Random seed, so the same graph gives the same run.")
    report_max_input_tokens: int = Field(
        6000, json_schema_extra=REPORT_CONTEXT, description="Token budget of one report's context."
    )
    report_max_tokens: int = Field(1500, description="Most tokens one report may generate.")
    reports: Literal["all", "lazy", "none"] | None = Field(
        None,
        description="LLM community reports: all at build time, lazy (written by global search "
        "for the communities a question selects) or none; empty = lazy when no document was "
        "indexed with LLM extraction, all otherwise.",
    )
    min_report_size: int = Field(
        3, ge=1,
        description="Communities of fewer member entities get no LLM report, at build time or "
        "lazily: their extractive summary stands (a pair's report restates its one relation); "
        "1 reports every community.",
    )
    extractive_sentences: int = Field(
        5,
        description="Sentences in a community's extractive summary (written at build time "
        "without an LLM): its member and relation description sentences that name most members.",
    )
    extractive_max_tokens: int = Field(
        200, description="Token budget of a community's extractive summary."
    )


class ExecutionSettings(Section):
    """Where `index` runs its map work: in this process (the default) or on a Ray cluster."""

    ray: bool = Field(
        False, description="Run extraction's map work as Ray tasks (`index --ray`): a local Ray"
        " when no cluster is named, else the cluster at `ray_address` or RAY_ADDRESS. Needs the"
        " `graphrag-neo4j[ray]` extra.",
    )
    ray_address: str | None = Field(
        None, description="The Ray cluster to join (`host:port` of `ray start --head`, or"
        " `ray://host:10001`); empty = RAY_ADDRESS, else a local Ray on this machine.",
    )
    node_ip_address: str = Field(
        "127.0.0.1", description="The address this driver gives Ray for itself. Loopback keeps a"
        " local Ray, or a cluster at a loopback address, on 127.0.0.1; for a cluster on other"
        " machines Ray replaces it with this machine's network address.",
    )
    partition_chunks: int = Field(
        64, ge=1, description="Most chunks (or texts to embed) one Ray task handles: what a"
        " worker holds at once; fewer when that keeps every CPU of the cluster busy.",
    )
    tasks_in_flight: int = Field(
        8, ge=1, description="Ray tasks submitted and not yet collected: bounds what the"
        " driver holds of their results.",
    )
