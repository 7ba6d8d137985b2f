// Every stored community with its level, current members and parent, to match re-clustered
// ones to it and to keep it after a delete.
MATCH (c:__Community__)
OPTIONAL MATCH (e:__Entity__)-[:IN_COMMUNITY]->(c)
WITH c, collect(e.id) AS members
OPTIONAL MATCH (c)-[:PARENT_COMMUNITY]->(p:__Community__)
RETURN c.id AS id, c.level AS level, members, p.id AS parent_id
ORDER BY level, id
