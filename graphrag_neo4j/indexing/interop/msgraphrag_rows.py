"""Shapes Microsoft GraphRAG table rows into the rows our graph-model Cypher files write."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from graphrag_neo4j.database.content_ids import content_id
from graphrag_neo4j.indexing.graph.refresh import entity_embedding_text, relation_embedding_text
from graphrag_neo4j.indexing.interop.msgraphrag_communities import community_rows, report_rows
from graphrag_neo4j.indexing.interop.msgraphrag_tables import MsOutput, Row, id_list
from graphrag_neo4j.indexing.interop.msgraphrag_tables import number_of as _number
from graphrag_neo4j.indexing.interop.msgraphrag_tables import text_of as _text
from graphrag_neo4j.indexing.records import normalize_name, normalize_type

DEFAULT_PREDICATE = "related to"


@dataclass
class GraphRows:
    """Everything one import writes, table by table, plus the texts to embed by row id."""

    documents: list[Row] = field(default_factory=list)
    chunks: list[Row] = field(default_factory=list)
    entities: list[Row] = field(default_factory=list)
    mentions: list[Row] = field(default_factory=list)
    relations: list[Row] = field(default_factory=list)
    relation_mentions: list[Row] = field(default_factory=list)
    communities: list[Row] = field(default_factory=list)
    reports: list[Row] = field(default_factory=list)
    covariates: list[Row] = field(default_factory=list)
    placeholders: list[Row] = field(default_factory=list)


def document_rows(output: MsOutput) -> list[Row]:
    """Documents with a content hash of their text (or of their id when the text is absent)."""
    return [
        {"id": str(d["id"]), "title": _text(d["title"]) or str(d["id"]),
         "source": f"msgraphrag:{_text(d['title']) or d['id']}",
         "content_hash": content_id("text", d["text"]) if d["text"] else content_id("id", d["id"])}
        for d in output.rows("documents")
    ]


def chunk_rows(output: MsOutput) -> list[Row]:
    """Text units as chunks, numbered in their document's order (text_unit_ids, else table)."""
    order: dict[str, int] = {}
    for document in output.rows("documents"):
        order.update({unit: i for i, unit in enumerate(id_list(document["text_unit_ids"]))})
    seen: Counter[str] = Counter()
    rows = []
    for unit in output.rows("text_units"):
        document_ids = id_list(unit["document_id"])
        document_id = document_ids[0] if document_ids else ""
        index = order.get(str(unit["id"]), seen[document_id])
        seen[document_id] += 1
        rows.append({"id": str(unit["id"]), "document_id": document_id, "text": _text(unit["text"]),
                     "n_tokens": int(_number(unit["n_tokens"], 0)), "chunk_index": index})
    return rows


def entity_rows(output: MsOutput) -> tuple[list[Row], list[Row]]:
    """Entity nodes, and HAS_ENTITY rows from both sides (entities' and text units' id lists)."""
    degree = Counter[str]()
    for rel in output.rows("relationships"):
        degree.update([_text(rel["source"]), _text(rel["target"])])
    units_of: dict[str, set[str]] = defaultdict(set)
    for unit in output.rows("text_units"):
        for entity in id_list(unit["entity_ids"]):
            units_of[entity].add(str(unit["id"]))
    entities: list[Row] = []
    mentions: list[Row] = []
    for e in output.rows("entities"):
        name, entity_type = _text(e["title"]), normalize_type(_text(e["type"]))
        units = sorted(set(id_list(e["text_unit_ids"])) | units_of[str(e["id"])])
        description = _text(e["description"])
        row = {"id": str(e["id"]), "name": name, "name_key": normalize_name(name),
               "type": entity_type, "description": description,
               "frequency": int(_number(e["frequency"], len(units))),
               "degree": int(_number(e["degree"], degree[name])), "placeholder": None,
               "embedding_text": entity_embedding_text(name, description)}
        entities.append(row)
        mentions.extend(
            {"chunk_id": unit, "entity_id": row["id"], "name": name, "name_key": row["name_key"],
             "type": entity_type, "surface_type": entity_type, "description": description,
             "surface_names": [name]}
            for unit in units
        )
    return entities, mentions


def placeholder_rows(output: MsOutput, known: set[str]) -> list[Row]:
    """Entities for relationship ends missing from the entities table (real indexes have them)."""
    degree = Counter[str]()
    for rel in output.rows("relationships"):
        degree.update(t for t in (_text(rel["source"]), _text(rel["target"])) if t not in known)
    return [
        {"id": content_id("msgraphrag-placeholder", name), "name": name,
         "name_key": normalize_name(name), "type": "unknown", "description": "",
         "frequency": 0, "degree": count, "placeholder": True,
         "embedding_text": entity_embedding_text(name, "")}
        for name, count in sorted(degree.items())
    ]


def relation_rows(output: MsOutput, ids_by_title: dict[str, str]) -> list[Row]:
    """RELATED edges between entities, joined on their titles as GraphRAG does."""
    relations = []
    for rel in output.rows("relationships"):
        source, target = _text(rel["source"]), _text(rel["target"])
        predicate = _text(rel["predicate"]) or DEFAULT_PREDICATE
        description = _text(rel["description"])
        sentence = relation_embedding_text(source, predicate, target)
        relations.append({
            "id": str(rel["id"]), "source_id": ids_by_title[source],
            "target_id": ids_by_title[target], "predicate": predicate,
            "description": description or sentence, "weight": _number(rel["weight"], 1.0),
            "chunk_ids": id_list(rel["text_unit_ids"]),
            "embedding_text": sentence if rel["predicate"] else f"{sentence}: {description}",
        })
    return relations


def relation_mention_rows(relations: list[Row]) -> list[Row]:
    """One provenance row per (relation, chunk); the weight is shared out over its chunks."""
    rows: list[Row] = []
    for rel in relations:
        chunks = rel["chunk_ids"] or [None]
        strength = rel["weight"] / len(chunks)
        rows.extend(
            {"id": rel["id"], "source_id": rel["source_id"], "target_id": rel["target_id"],
             "predicate": rel["predicate"], "chunk_id": chunk,
             "description": rel["description"], "strength": strength}
            for chunk in chunks
        )
    return rows


def covariate_rows(output: MsOutput, ids_by_title: dict[str, str]) -> list[Row]:
    """Claims (covariates) with the entity ids their subject and object names resolve to."""
    rows = []
    for cov in output.rows("covariates"):
        subject, obj = _text(cov["subject"]), _text(cov["object"])
        rows.append({
            "id": str(cov["id"]), "covariate_type": _text(cov["covariate_type"]) or "claim",
            "type": _text(cov["type"]), "description": _text(cov["description"]),
            "status": _text(cov["status"]), "start_date": _text(cov["start_date"]),
            "end_date": _text(cov["end_date"]), "source_text": _text(cov["source_text"]),
            "subject": subject, "object": obj, "subject_id": ids_by_title.get(subject),
            "object_id": ids_by_title.get(obj), "chunk_id": _text(cov["text_unit_id"]) or None,
        })
    return rows


def graph_rows(output: MsOutput) -> GraphRows:
    """Every row an import writes, with the texts each vector will encode."""
    rows = GraphRows(documents=document_rows(output), chunks=chunk_rows(output))
    rows.entities, rows.mentions = entity_rows(output)
    rows.placeholders = placeholder_rows(output, {e["name"] for e in rows.entities})
    ids_by_title = {e["name"]: e["id"] for e in rows.entities + rows.placeholders}
    rows.relations = relation_rows(output, ids_by_title)
    rows.relation_mentions = relation_mention_rows(rows.relations)
    rows.communities = community_rows(output, ids_by_title, rows.relations)
    rows.reports = report_rows(output, rows.communities)
    rows.covariates = covariate_rows(output, ids_by_title)
    return rows
