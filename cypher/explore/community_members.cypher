// A community's members, the relations among them, and its report. Set the community first,
// e.g. `:param community_id => '...'` (ids come from community_tree or `graphrag-neo4j communities`).
MATCH (c:__Community__ {id: $community_id})
OPTIONAL MATCH member = (e:__Entity__)-[:IN_COMMUNITY]->(c)
OPTIONAL MATCH inner = (e)-[:RELATED]->(:__Entity__)-[:IN_COMMUNITY]->(c)
RETURN c, c.title AS title, c.level AS level, c.rank AS rank, c.summary AS summary,
       c.full_content AS report, collect(DISTINCT member) AS members,
       collect(DISTINCT inner) AS relations
