// The $k communities nearest a question vector, through the community_embedding index: the
// $candidates nearest of all levels, then the best $k of level $level, or of every level when
// $level is null (DRIFT's primer). Extractive summaries count (report_status 'extractive'):
// lazy reports are written for the chosen ones. HNSW with a small k misses true neighbours,
// so callers ask for more $candidates than $k.
CALL db.index.vector.queryNodes('community_embedding', $candidates, $vector)
YIELD node AS c, score
WHERE ($level IS NULL OR c.level = $level) AND c.full_content IS NOT NULL
RETURN c.id AS id, c.level AS level, c.title AS title, c.summary AS summary,
       c.full_content AS full_content, coalesce(c.rank, 0.0) AS rank,
       c.report_status AS report_status, coalesce(c.report_mode, 'all') AS report_mode,
       coalesce(c.size, 0) AS size, score
ORDER BY score DESC, rank DESC, id
LIMIT $k
