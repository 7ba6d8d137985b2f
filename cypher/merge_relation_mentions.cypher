// Per-chunk provenance of relations: one RELATED edge per (source, predicate, target), one row
// per edge carrying the chunks that state it and what each said (parallel lists). A new edge
// takes the lists as they are; an existing one appends only chunks it does not list yet.
UNWIND $rows AS row
MATCH (s:__Entity__ {id: row.source_id})
MATCH (t:__Entity__ {id: row.target_id})
MERGE (s)-[r:RELATED {id: row.id}]->(t)
ON CREATE SET r.predicate = row.predicate, r.chunk_ids = row.chunk_ids,
              r.mention_descriptions = row.descriptions, r.mention_strengths = row.strengths
WITH r, row,
     [i IN range(0, size(row.chunk_ids) - 1) WHERE NOT row.chunk_ids[i] IN r.chunk_ids] AS fresh
WHERE size(fresh) > 0
SET r.chunk_ids = r.chunk_ids + [i IN fresh | row.chunk_ids[i]],
    r.mention_descriptions = r.mention_descriptions + [i IN fresh | row.descriptions[i]],
    r.mention_strengths = r.mention_strengths + [i IN fresh | row.strengths[i]]
