// The community levels that have reports, with how many communities each holds.
MATCH (c:__Community__)
WHERE c.full_content IS NOT NULL
RETURN c.level AS level, count(*) AS communities
ORDER BY level
