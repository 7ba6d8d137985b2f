"""Shapes Microsoft GraphRAG communities and their reports into our community rows."""

from __future__ import annotations

from graphrag_neo4j.communities.report_stage import embedding_text
from graphrag_neo4j.database.content_ids import content_id
from graphrag_neo4j.indexing.interop.msgraphrag_tables import (
    MsOutput,
    Row,
    findings_json,
    id_list,
    is_missing,
    number_of,
    text_of,
)

IMPORTED = "imported"


def _community_id(row: Row, number: int) -> str:
    """Their id when it is a real id; v0.x used the community number itself as its id."""
    given = text_of(row["id"])
    return given if given and given != str(number) else f"msgraphrag-community-{number}"


def _members(row: Row, entity_ids: set[str], endpoints: dict[str, tuple[str, str]]) -> list[str]:
    """entity_ids when the table has them; otherwise the ends of the community's relationships."""
    members = {e for e in id_list(row["entity_ids"]) if e in entity_ids}
    if not members:
        for rel_id in id_list(row["relationship_ids"]):
            members.update(endpoints.get(rel_id, ()))
    return sorted(members)


def _infer_parents(rows: list[Row]) -> None:
    """v0.x has no parent column: a community's parent is the level above holding its members."""
    for row in rows:
        if row["parent_id"] is not None or row["level"] == 0 or not row["member_ids"]:
            continue
        first = row["member_ids"][0]
        for other in rows:
            if other["level"] == row["level"] - 1 and first in other["member_ids"]:
                row["parent_id"] = other["id"]
                break


def community_rows(
    output: MsOutput, ids_by_title: dict[str, str], relations: list[Row]
) -> list[Row]:
    """One row per community: id, number, level, size, parent id, title and member ids."""
    entity_ids = set(ids_by_title.values())
    endpoints = {r["id"]: (r["source_id"], r["target_id"]) for r in relations}
    table = output.rows("communities")
    ids = {int(number_of(c["community"], -1)): _community_id(c, int(number_of(c["community"], -1)))
           for c in table}
    rows = []
    for community in table:
        number = int(number_of(community["community"], -1))
        parent = int(number_of(community["parent"], -1))
        members = _members(community, entity_ids, endpoints)
        rows.append({
            "id": ids[number], "number": number, "level": int(number_of(community["level"], 0)),
            "size": len(members), "parent_id": ids.get(parent) if parent >= 0 else None,
            "title": text_of(community["title"]) or f"Community {number}",
            "member_ids": members,
        })
    if all(is_missing(c["parent"]) for c in table):
        _infer_parents(rows)
    return rows


def report_rows(output: MsOutput, communities: list[Row]) -> list[Row]:
    """Reports in our shape, joined to communities by community number."""
    by_number = {c["number"]: c for c in communities}
    rows = []
    for report in output.rows("community_reports"):
        community = by_number.get(int(number_of(report["community"], -1)))
        if community is None:
            continue
        title = text_of(report["title"]) or community["title"]
        summary = text_of(report["summary"])
        full_content = text_of(report["full_content"]) or f"# {title}\n\n{summary}"
        rows.append({
            "id": community["id"], "title": title, "summary": summary,
            "full_content": full_content, "rank": number_of(report["rank"], 0.0),
            "rating_explanation": text_of(report["rating_explanation"]),
            "findings": findings_json(report["findings"]), "report_status": IMPORTED,
            "content_hash": content_id("report", full_content),
            "embedding_text": embedding_text(title, summary),
        })
    return rows
