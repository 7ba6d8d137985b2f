// Hops: the $k relations whose sentence vectors are nearest to the question's, with endpoints.
// The index is asked for $candidates (>= $k): HNSW with a small k misses true neighbours.
CALL db.index.vector.queryRelationships('related_embedding', $candidates, $embedding)
YIELD relationship, score
WITH relationship, score
ORDER BY score DESC
LIMIT $k
RETURN relationship.id AS id, startNode(relationship).id AS source_id,
       endNode(relationship).id AS target_id, score
