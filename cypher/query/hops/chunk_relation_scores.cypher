// Hops: per given chunk, how near the question is the nearest relation it states (relations
// with a vector only), so a passage found by its text is weighed by its facts as one found
// through the question's entities is.
UNWIND $ids AS id
MATCH (:__Chunk__ {id: id})-[:HAS_ENTITY]->(:__Entity__)-[r:RELATED]-()
WHERE r.embedding IS NOT NULL AND id IN r.chunk_ids
RETURN id AS chunk_id, max(vector.similarity.cosine(r.embedding, $embedding)) AS score
