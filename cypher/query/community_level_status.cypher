// How one level's reports stand, without reading them (global search on a lazy level reads
// only the communities nearest the question): the communities holding a report or an
// extractive summary, those whose LLM report may still be written lazily (an extractive
// summary, report mode not 'none'), and the characters of all their content.
MATCH (c:__Community__ {level: $level})
WHERE c.full_content IS NOT NULL
RETURN count(c) AS communities,
       count(CASE WHEN c.report_status = $extractive
                   AND coalesce(c.report_mode, 'all') <> 'none' THEN 1 END) AS waiting,
       coalesce(sum(size(c.full_content)), 0) AS characters
