// One entity by id: its strongest relations, the chunks that mention it, its communities.
MATCH (e:__Entity__ {id: $id})
CALL (e) {
  OPTIONAL MATCH (e)-[r:RELATED]-(other:__Entity__)
  WITH r, other
  ORDER BY r.weight DESC
  LIMIT $limit
  RETURN collect(r {.id, .predicate, .description, .weight, source: startNode(r).name,
                    target: endNode(r).name, other_id: other.id}) AS relations
}
CALL (e) {
  OPTIONAL MATCH (c:__Chunk__)-[:HAS_ENTITY]->(e)
  OPTIONAL MATCH (c)-[:PART_OF]->(d:__Document__)
  WITH c, d
  LIMIT $limit
  RETURN collect(c {chunk_id: c.id, document_id: d.id, document_title: d.title,
                    text: left(c.text, $text_chars)}) AS chunks
}
CALL (e) {
  OPTIONAL MATCH (e)-[:IN_COMMUNITY]->(m:__Community__)
  WITH m
  ORDER BY m.level
  RETURN collect(m {.id, .level, .title}) AS communities
}
RETURN e.id AS id, e.name AS name, e.type AS type, e.description AS description,
       coalesce(e.degree, 0) AS degree, relations, chunks, communities
