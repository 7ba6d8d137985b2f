// Remove chunk-to-entity provenance edges (a chunk no longer counted as mentioning an entity).
UNWIND $rows AS row
MATCH (:__Chunk__ {id: row.chunk_id})-[h:HAS_ENTITY]->(:__Entity__ {id: row.entity_id})
DELETE h
