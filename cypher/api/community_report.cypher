// One community by id: its report, its parent and children, and its best-connected members.
MATCH (c:__Community__ {id: $id})
OPTIONAL MATCH (c)-[:PARENT_COMMUNITY]->(parent:__Community__)
CALL (c) {
  OPTIONAL MATCH (e:__Entity__)-[:IN_COMMUNITY]->(c)
  WITH e
  ORDER BY e.degree DESC
  LIMIT $limit
  RETURN collect(e {.id, .name, .type}) AS members
}
CALL (c) {
  OPTIONAL MATCH (child:__Community__)-[:PARENT_COMMUNITY]->(c)
  RETURN collect(child {.id, .level, .title}) AS children
}
RETURN c.id AS id, c.level AS level, c.title AS title, c.summary AS summary,
       c.full_content AS report, c.rank AS rank, c.size AS size, parent.id AS parent_id,
       members, children
