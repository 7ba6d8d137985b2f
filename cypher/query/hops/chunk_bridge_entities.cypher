// Hops' coverage-aware selection: per given chunk, its named entities that at most
// $max_passages passages mention (possible bridges), each with how many passages do.
UNWIND $ids AS id
MATCH (c:__Chunk__ {id: id})-[:HAS_ENTITY]->(e:__Entity__)
WHERE coalesce(e.type, '') <> $concept_type
WITH c, e, COUNT { (e)<-[:HAS_ENTITY]-(:__Chunk__) } AS passages
WHERE passages <= $max_passages
RETURN c.id AS chunk_id, e.id AS id, e.name AS name, passages
ORDER BY chunk_id, id
