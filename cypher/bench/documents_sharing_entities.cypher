// Benchmark: per pair of documents, the entities a passage of each names (not concepts, named
// by at most $max_passages passages): the links a chain of facts can follow between them.
UNWIND $pairs AS pair
MATCH (:__Document__ {id: pair[0]})<-[:PART_OF]-(:__Chunk__)-[:HAS_ENTITY]->(e:__Entity__)
      <-[:HAS_ENTITY]-(:__Chunk__)-[:PART_OF]->(:__Document__ {id: pair[1]})
WHERE coalesce(e.type, '') <> $concept_type
  AND COUNT { (e)<-[:HAS_ENTITY]-(:__Chunk__) } <= $max_passages
RETURN pair[0] AS first, pair[1] AS second, count(DISTINCT e) AS shared
