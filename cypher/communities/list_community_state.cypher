// Every stored community with its level and current members, to match re-clustered ones to it.
MATCH (c:__Community__)
OPTIONAL MATCH (e:__Entity__)-[:IN_COMMUNITY]->(c)
WITH c, collect(e.id) AS members
RETURN c.id AS id, c.level AS level, members
ORDER BY level, id
