"""Our communities as GraphRAG's communities and community_reports tables (numbered, nested)."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

Row = dict[str, Any]


def community_numbers(communities: list[Row]) -> dict[str, int]:
    """Community id -> number: the stored GraphRAG number when every community has a distinct
    one (an imported index keeps its numbering), else the position in (level, id) order."""
    stored = [c["number"] for c in communities]
    if all(isinstance(n, int) for n in stored) and len(set(stored)) == len(stored):
        return {c["id"]: int(c["number"]) for c in communities}
    return {c["id"]: n for n, c in enumerate(communities)}


def _inner_relations(members: set[str], relations: list[Row]) -> list[Row]:
    return [r for r in relations if r["source_id"] in members and r["target_id"] in members]


def findings_list(findings: Any) -> list[dict[str, str]]:
    """Our stored findings JSON as GraphRAG's list of {summary, explanation}."""
    try:
        value = json.loads(findings) if isinstance(findings, str) else []
    except json.JSONDecodeError:
        return []
    return [{"summary": str(f.get("summary", "")), "explanation": str(f.get("explanation", ""))}
            for f in value if isinstance(f, dict)]


def _report(community: Row, base: Row) -> Row:
    findings = findings_list(community["findings"])
    rank = float(community["rank"] or 0.0)
    content = {"title": community["title"], "summary": community["summary"],
               "findings": findings, "rating": rank,
               "rating_explanation": community["rating_explanation"] or ""}
    return {**base, "id": community["id"], "summary": community["summary"] or "",
            "full_content": community["full_content"], "rank": rank,
            "rating_explanation": community["rating_explanation"] or "", "findings": findings,
            "full_content_json": json.dumps(content, ensure_ascii=False)}


def community_tables(
    communities: list[Row], relations: list[Row], period: str
) -> tuple[list[Row], list[Row]]:
    """The communities table and the reports table (only communities that have a report)."""
    numbers = community_numbers(communities)
    children: dict[str, list[int]] = defaultdict(list)
    for c in communities:
        if c["parent_id"] is not None:
            children[c["parent_id"]].append(numbers[c["id"]])
    table, reports = [], []
    for c in communities:
        number = numbers[c["id"]]
        inner = _inner_relations(set(c["entity_ids"]), relations)
        base = {
            "human_readable_id": number, "community": number, "level": int(c["level"] or 0),
            "parent": numbers[c["parent_id"]] if c["parent_id"] is not None else -1,
            "children": sorted(children[c["id"]]), "title": c["title"] or f"Community {number}",
            "period": period, "size": len(c["entity_ids"]),
        }
        table.append({
            **base, "id": c["id"], "entity_ids": c["entity_ids"],
            "relationship_ids": [r["id"] for r in inner],
            "text_unit_ids": sorted({u for r in inner for u in r["chunk_ids"]}),
        })
        if c["full_content"]:
            reports.append(_report(c, base))
    return table, reports
