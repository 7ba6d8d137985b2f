// Hops: the relations touching the expanded entities, the $limit nearest to the question first;
// relations without a vector (fast ones, unless embedded) follow, strongest first.
UNWIND $ids AS id
MATCH (:__Entity__ {id: id})-[r:RELATED]-()
WITH DISTINCT r
WITH r, coalesce(vector.similarity.cosine(r.embedding, $embedding), -1.0) AS score
ORDER BY score DESC, coalesce(r.weight, 0.0) DESC, r.id
LIMIT $limit
RETURN r.id AS id, startNode(r).id AS source_id, startNode(r).name AS subject,
       r.predicate AS predicate, endNode(r).id AS target_id, endNode(r).name AS object,
       r.chunk_ids AS chunk_ids, score
