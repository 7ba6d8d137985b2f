// Communities per level: how many, members, the largest, leaves, LLM reports, fallbacks and
// extractive summaries (no LLM report yet).
MATCH (c:__Community__)
OPTIONAL MATCH (child:__Community__)-[:PARENT_COMMUNITY]->(c)
WITH c, count(child) AS children
RETURN c.level AS level, count(c) AS communities, sum(c.size) AS members,
       max(c.size) AS largest, sum(CASE WHEN children = 0 THEN 1 ELSE 0 END) AS leaves,
       count(CASE WHEN c.report_status <> 'extractive' THEN c.full_content END) AS reports,
       sum(CASE WHEN c.report_status = 'fallback' THEN 1 ELSE 0 END) AS fallbacks,
       sum(CASE WHEN c.report_status = 'extractive' THEN 1 ELSE 0 END) AS extractive
ORDER BY level
