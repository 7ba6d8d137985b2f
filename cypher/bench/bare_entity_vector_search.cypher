// A bare entity vector search, the floor that local retrieval latency is compared with.
CALL db.index.vector.queryNodes('entity_description_embedding', $top_k, $query_vector)
YIELD node, score
RETURN node.id AS id, score
