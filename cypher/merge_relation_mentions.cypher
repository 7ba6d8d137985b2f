// Per-chunk provenance of relations: one RELATED edge per (source, predicate, target),
// with the chunks that state it and what each of them said, appended once per chunk.
UNWIND $rows AS row
MATCH (s:__Entity__ {id: row.source_id})
MATCH (t:__Entity__ {id: row.target_id})
MERGE (s)-[r:RELATED {id: row.id}]->(t)
ON CREATE SET r.predicate = row.predicate, r.chunk_ids = [], r.mention_descriptions = [],
              r.mention_strengths = []
WITH r, row
WHERE NOT row.chunk_id IN r.chunk_ids
SET r.chunk_ids = r.chunk_ids + row.chunk_id,
    r.mention_descriptions = r.mention_descriptions + row.description,
    r.mention_strengths = r.mention_strengths + row.strength
