// Naive search: the $k chunks whose embeddings are nearest to the question's, with their document.
// The index is asked for $candidates (>= $k): HNSW with a small k misses true neighbours.
CALL db.index.vector.queryNodes('chunk_embedding', $candidates, $embedding) YIELD node, score
WITH node, score
ORDER BY score DESC
LIMIT $k
OPTIONAL MATCH (node)-[:PART_OF]->(d:__Document__)
RETURN node.id AS chunk_id, coalesce(d.id, node.document_id) AS document_id,
       coalesce(d.title, '') AS title, node.text AS text, score
ORDER BY score DESC
