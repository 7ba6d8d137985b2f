// The head LangChain's Neo4jVector puts before a retrieval_query (used to EXPLAIN retrieval queries).
CALL db.index.vector.queryNodes('entity_description_embedding', $top_k, $query_vector)
YIELD node, score
WITH node, score
