// The community levels that have reports or extractive summaries, with how many each holds.
MATCH (c:__Community__)
WHERE c.full_content IS NOT NULL
RETURN c.level AS level, count(*) AS communities
ORDER BY level
