// Every community with its report fields and parent, for tests and exports.
MATCH (c:__Community__)
OPTIONAL MATCH (c)-[:PARENT_COMMUNITY]->(parent:__Community__)
RETURN c.id AS id, c.level AS level, c.size AS size, c.weight AS weight, c.rank AS rank,
       c.title AS title, c.summary AS summary, c.full_content AS full_content,
       c.rating_explanation AS rating_explanation, c.findings AS findings,
       c.report_status AS report_status, c.content_hash AS content_hash,
       c.embedding IS NOT NULL AS embedded, parent.id AS parent_id
ORDER BY level, id
