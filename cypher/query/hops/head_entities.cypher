// Hops: the named entities (not concepts) of the passage nearest the question, each with how
// many passages mention it and, when at most $max_passages do (a multi-hop question's
// bridges), those passages. Every name also titles a page that may be a bridge's
// (query/hops/pages_titled).
MATCH (:__Chunk__ {id: $chunk_id})-[:HAS_ENTITY]->(e:__Entity__)
WHERE coalesce(e.type, '') <> $concept_type
WITH e, COUNT { (e)<-[:HAS_ENTITY]-(:__Chunk__) } AS passages
RETURN e.id AS id, e.name AS name, passages,
       CASE WHEN passages <= $max_passages
            THEN COLLECT { MATCH (e)<-[:HAS_ENTITY]-(c:__Chunk__) RETURN c.id }
            ELSE [] END AS chunk_ids
ORDER BY id
