// Benchmark: every RELATED edge with its endpoints and provenance lists, as floor-write rows.
MATCH (s:__Entity__)-[r:RELATED]->(t:__Entity__)
RETURN s.id AS source_id, t.id AS target_id, r.id AS id, r.predicate AS predicate,
       r.chunk_ids AS chunk_ids, r.mention_descriptions AS mention_descriptions,
       r.mention_strengths AS mention_strengths, r.mention_subjects AS mention_subjects,
       r.mention_objects AS mention_objects
