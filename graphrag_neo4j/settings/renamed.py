"""Renamed settings: old flat [search] names, where they moved, and when they go."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

# The release that drops the old names below (tests/unit/settings/test_settings.py fails once the
# package's version reaches it and the table is still here).
RENAMED_SETTINGS_REMOVED_IN = "0.2.0"

# Old flat [search] names -> their place in a method's section. They keep working, with a
# deprecation line, until RENAMED_SETTINGS_REMOVED_IN (in the settings file, environment and
# query options).
RENAMED_SEARCH_SETTINGS: dict[str, str] = {
    "top_k_entities": "local.top_k_entities",
    "top_chunks": "local.top_chunks",
    "top_communities": "local.top_communities",
    "top_outside_rels": "local.top_outside_rels",
    "top_inside_rels": "local.top_inside_rels",
    "rels_per_entity": "local.rels_per_entity",
    "local_context_tokens": "local.context_tokens",
    "text_unit_prop": "local.text_unit_prop",
    "community_prop": "local.community_prop",
    "local_seeds_per_mention": "local.seeds_per_mention",
    "community_level": "global.community_level",
    "map_batch_tokens": "global.map_batch_tokens",
    "map_budget_tokens": "global.map_budget_tokens",
    "reduce_tokens": "global.reduce_tokens",
    "dynamic_selection": "global.dynamic_selection",
    "dynamic_min_rating": "global.dynamic_min_rating",
    "hops_entity_top_k": "hops.entity_top_k",
    "hops_relation_top_k": "hops.relation_top_k",
    "hops_degree": "hops.degree",
    "hops_final_k": "hops.final_k",
    "hops_rerank": "hops.rerank",
    "hops_max_candidates": "hops.max_candidates",
    "hops_rerank_candidates": "hops.rerank_candidates",
    "hops_rerank_select": "hops.rerank_select",
    "hops_relation_weight": "hops.relation_weight",
    "hops_fast_relation_weight": "hops.fast_relation_weight",
    "hops_bridge_weight": "hops.bridge_weight",
    "hops_bridge_max_passages": "hops.bridge_max_passages",
    "drift_primer_k": "drift.primer_k",
    "drift_k_followups": "drift.k_followups",
    "drift_depth": "drift.depth",
    "drift_hyde": "drift.hyde",
    "drift_primer_tokens": "drift.primer_tokens",
    "drift_followup_tokens": "drift.followup_tokens",
    "drift_reduce_tokens": "drift.reduce_tokens",
    "naive_top_k": "naive.top_k",
    "hybrid": "hybrid.enabled",
    "hybrid_candidates": "hybrid.candidates",
    "hybrid_fusion": "hybrid.fusion",
}


def renamed_setting_line(old: str, new: str) -> str:
    """The one deprecation sentence for an old [search] name."""
    return (f"search.{old} is deprecated: use search.{new} (the old name goes in release"
            f" {RENAMED_SETTINGS_REMOVED_IN}).")


def moved_search_names(table: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A [search] table with old flat names moved into their sections, and a line per move.

    A new name given as well wins over the old one.
    """
    # `hybrid` is an old name and a section: only its old, scalar form moves.
    moved = {key: value for key, value in table.items()
             if key in RENAMED_SEARCH_SETTINGS and not isinstance(value, Mapping | BaseModel)}
    result = {key: value for key, value in table.items() if key not in moved}
    for old, value in moved.items():
        section, key = RENAMED_SEARCH_SETTINGS[old].split(".")
        existing = result.get(section) or {}
        if isinstance(existing, BaseModel):
            existing = existing.model_dump(by_alias=True)
        result[section] = {key: value, **existing}
    lines = [renamed_setting_line(old, RENAMED_SEARCH_SETTINGS[old]) for old in moved]
    return result, lines
