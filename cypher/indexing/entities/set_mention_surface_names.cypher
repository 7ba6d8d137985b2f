// Replace the names a chunk used for an entity (after some of them moved to another entity).
UNWIND $rows AS row
MATCH (:__Chunk__ {id: row.chunk_id})-[h:HAS_ENTITY]->(:__Entity__ {id: row.entity_id})
SET h.surface_names = row.surface_names
