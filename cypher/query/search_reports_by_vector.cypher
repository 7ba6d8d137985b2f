// DRIFT primer: the $k community reports whose embeddings are nearest to the question's.
// The index is asked for $candidates (>= $k): HNSW with a small k misses true neighbours.
CALL db.index.vector.queryNodes('community_embedding', $candidates, $embedding) YIELD node, score
WITH node, score
WHERE node.full_content IS NOT NULL
ORDER BY score DESC, coalesce(node.rank, 0.0) DESC
LIMIT $k
RETURN node.id AS id, node.level AS level, node.title AS title, node.summary AS summary,
       node.full_content AS full_content, coalesce(node.rank, 0.0) AS rank, score
ORDER BY score DESC, rank DESC
