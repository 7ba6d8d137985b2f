// Communities with parent, members and report fields, for the parquet export.
MATCH (c:__Community__)
CALL (c) {
  OPTIONAL MATCH (e:__Entity__)-[:IN_COMMUNITY]->(c)
  WITH e ORDER BY e.id
  RETURN collect(e.id) AS entity_ids
}
OPTIONAL MATCH (c)-[:PARENT_COMMUNITY]->(parent:__Community__)
RETURN c.id AS id, c.level AS level, c.community AS number, parent.id AS parent_id,
       c.title AS title, c.summary AS summary, c.full_content AS full_content, c.rank AS rank,
       c.rating_explanation AS rating_explanation, c.findings AS findings, entity_ids
ORDER BY level, number, id
