// Every community report of one level, most important first (for global search's map step).
MATCH (c:__Community__ {level: $level})
WHERE c.full_content IS NOT NULL
RETURN c.id AS id, c.level AS level, c.title AS title, c.summary AS summary,
       c.full_content AS full_content, coalesce(c.rank, 0.0) AS rank
ORDER BY rank DESC, id
