// Every community report of one level, most important first (for global search's map step);
// extractive summaries stand where no LLM report was written (report_status 'extractive').
MATCH (c:__Community__ {level: $level})
WHERE c.full_content IS NOT NULL
RETURN c.id AS id, c.level AS level, c.title AS title, c.summary AS summary,
       c.full_content AS full_content, coalesce(c.rank, 0.0) AS rank,
       c.report_status AS report_status, coalesce(c.report_mode, 'all') AS report_mode,
       coalesce(c.size, 0) AS size
ORDER BY rank DESC, coalesce(c.weight, 0) DESC, id
