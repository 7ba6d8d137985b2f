// The communities of one level nearest a question vector, through the community_embedding
// index: the $candidates nearest of all levels, then this level's best $k (lazy reports).
CALL db.index.vector.queryNodes('community_embedding', $candidates, $vector)
YIELD node AS c, score
WHERE c.level = $level AND c.full_content IS NOT NULL
RETURN c.id AS id, c.level AS level, c.title AS title, c.summary AS summary,
       c.full_content AS full_content, coalesce(c.rank, 0.0) AS rank,
       c.report_status AS report_status, coalesce(c.report_mode, 'all') AS report_mode, score
ORDER BY score DESC, id
LIMIT $k
