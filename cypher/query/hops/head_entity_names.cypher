// Hops: the names of the named entities (not concepts) of the passage nearest the question,
// whose pages (query/hops/pages_titled) are bridges' pages.
MATCH (:__Chunk__ {id: $chunk_id})-[:HAS_ENTITY]->(e:__Entity__)
WHERE coalesce(e.type, '') <> $concept_type
RETURN DISTINCT e.name AS name
ORDER BY name
