// Benchmark: given relation ids (from the scipy expansion), the $limit nearest to the question.
UNWIND $ids AS id
MATCH ()-[r:RELATED {id: id}]->()
WITH r, coalesce(vector.similarity.cosine(r.embedding, $embedding), -1.0) AS score
ORDER BY score DESC, r.id
LIMIT $limit
RETURN r.id AS id, r.chunk_ids AS chunk_ids, score
