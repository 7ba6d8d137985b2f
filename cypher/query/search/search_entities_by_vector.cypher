// Hops: for each mention in the question, the $k entities whose vectors are nearest to it.
// The index is asked for $candidates (>= $k): HNSW with a small k misses true neighbours.
UNWIND $mentions AS mention
CALL (mention) {
  CALL db.index.vector.queryNodes('entity_description_embedding', $candidates, mention.embedding)
  YIELD node, score
  RETURN node, score
  ORDER BY score DESC
  LIMIT $k
}
RETURN mention.text AS mention, node.id AS id, node.name AS name, score
