// Hops: the passages of the pages about the named entities of the passage nearest the question
// (a passage whose document title is the entity's name, or the name and a bracketed qualifier:
// "Frank Lloyd", "Somalia (disambiguation)"), however many passages name the entity: the page
// about a bridge says most about it. Seeks the chunk_title index.
MATCH (:__Chunk__ {id: $chunk_id})-[:HAS_ENTITY]->(e:__Entity__)
WHERE coalesce(e.type, '') <> $concept_type
WITH DISTINCT e.name AS name
MATCH (c:__Chunk__)
WHERE c.title = name OR c.title STARTS WITH name + ' ('
RETURN name, collect(c.id) AS chunk_ids
ORDER BY name
