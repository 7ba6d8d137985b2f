// The largest communities (optionally of one level) with their report titles and ratings.
MATCH (c:__Community__)
WHERE $level IS NULL OR c.level = $level
OPTIONAL MATCH (c)-[:PARENT_COMMUNITY]->(parent:__Community__)
RETURN c.id AS id, c.level AS level, c.size AS size, c.weight AS weight, c.rank AS rank,
       c.title AS title, c.report_status AS report_status, parent.id AS parent_id
ORDER BY size DESC, level, id
LIMIT $limit
