// Per-chunk provenance: create each entity on first sight (one row per entity), then link every
// chunk that mentions it. An 'unknown' type is upgraded by the first typed mention.
UNWIND $rows AS row
MERGE (e:__Entity__ {id: row.id})
ON CREATE SET e.name = row.name, e.name_key = row.name_key, e.type = row.type
ON MATCH SET e.type = CASE WHEN e.type = 'unknown' THEN row.type ELSE e.type END
WITH e, row
UNWIND row.mentions AS mention
MATCH (c:__Chunk__ {id: mention.chunk_id})
MERGE (c)-[h:HAS_ENTITY]->(e)
SET h.description = mention.description, h.surface_names = mention.surface_names,
    h.surface_type = mention.surface_type
