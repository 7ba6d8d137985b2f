// Per-chunk provenance: create entities on first sight and link each chunk to what it mentions.
// An existing entity of type 'unknown' takes the type of the first typed mention.
UNWIND $rows AS row
MATCH (c:__Chunk__ {id: row.chunk_id})
MERGE (e:__Entity__ {id: row.entity_id})
ON CREATE SET e.name = row.name, e.name_key = row.name_key, e.type = row.type
ON MATCH SET e.type = CASE WHEN e.type = 'unknown' THEN row.type ELSE e.type END
MERGE (c)-[h:HAS_ENTITY]->(e)
SET h.description = row.description, h.surface_names = row.surface_names,
    h.surface_type = row.surface_type
