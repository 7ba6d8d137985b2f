// What each community's report is written from: its members, the relations among them, its
// sub-communities' reports (with their members, which a report may stand in for), and the
// stored report's hash, status and title/summary for reuse.
UNWIND $ids AS community_id
MATCH (c:__Community__ {id: community_id})
CALL (c) {
  MATCH (e:__Entity__)-[:IN_COMMUNITY]->(c)
  RETURN collect({id: e.id, name: e.name, type: e.type, description: e.description,
                  degree: e.degree}) AS entities
}
CALL (c) {
  MATCH (a:__Entity__)-[:IN_COMMUNITY]->(c)
  MATCH (a)-[r:RELATED]->(b:__Entity__)-[:IN_COMMUNITY]->(c)
  RETURN collect({id: r.id, source_id: a.id, source: a.name, target_id: b.id, target: b.name,
                  predicate: r.predicate, description: r.description, weight: r.weight,
                  degree: coalesce(a.degree, 0) + coalesce(b.degree, 0)}) AS relations
}
CALL (c) {
  MATCH (child:__Community__)-[:PARENT_COMMUNITY]->(c)
  WHERE child.full_content IS NOT NULL
  RETURN collect({id: child.id, full_content: child.full_content,
                  members: COLLECT { MATCH (m:__Entity__)-[:IN_COMMUNITY]->(child) RETURN m.id }})
    AS children
}
RETURN c.id AS id, entities, relations, children, c.content_hash AS content_hash,
       c.report_status AS report_status, c.title AS title, c.summary AS summary,
       c.embedding IS NOT NULL AS embedded
