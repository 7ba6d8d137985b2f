// Every stored community with its level, current members, parent and edges hash (top level),
// to match re-clustered ones to it and to keep those a change did not touch.
MATCH (c:__Community__)
OPTIONAL MATCH (e:__Entity__)-[:IN_COMMUNITY]->(c)
WITH c, collect(e.id) AS members
OPTIONAL MATCH (c)-[:PARENT_COMMUNITY]->(p:__Community__)
RETURN c.id AS id, c.level AS level, members, p.id AS parent_id, c.edges_hash AS edges_hash
ORDER BY level, id
