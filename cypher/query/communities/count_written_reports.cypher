// Communities whose report an LLM wrote or an import brought (not an extractive summary): the
// reports local search reads, which global and DRIFT add to as they answer (lazy reports).
MATCH (c:__Community__)
WHERE c.summary IS NOT NULL AND coalesce(c.report_status, '') <> $extractive
RETURN count(c) AS reports
