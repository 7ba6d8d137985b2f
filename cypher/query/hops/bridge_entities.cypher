// Hops: the named entities of the passage nearest the question that at most $max_passages
// passages mention (a multi-hop question's bridges), each with the passages mentioning it.
MATCH (:__Chunk__ {id: $chunk_id})-[:HAS_ENTITY]->(e:__Entity__)
WHERE coalesce(e.type, '') <> $concept_type
WITH e, COUNT { (e)<-[:HAS_ENTITY]-(:__Chunk__) } AS passages
WHERE passages <= $max_passages
MATCH (e)<-[:HAS_ENTITY]-(c:__Chunk__)
RETURN e.id AS id, e.name AS name, passages, collect(c.id) AS chunk_ids
ORDER BY id
