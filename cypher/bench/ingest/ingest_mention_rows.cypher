// Benchmark: every HAS_ENTITY edge with its endpoints and properties, as floor-write rows.
MATCH (c:__Chunk__)-[h:HAS_ENTITY]->(e:__Entity__)
RETURN c.id AS source_id, e.id AS target_id, h.description AS description,
       h.surface_names AS surface_names, h.surface_type AS surface_type
