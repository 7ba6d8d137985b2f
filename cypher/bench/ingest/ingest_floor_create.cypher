// Benchmark floor: the bare cost of creating the relation rows, with no MERGE and no provenance.
UNWIND $rows AS row
MATCH (s:__Entity__ {id: row.source_id})
MATCH (t:__Entity__ {id: row.target_id})
CREATE (s)-[:BENCH_REL {id: row.id, predicate: row.predicate, chunk_ids: row.chunk_ids,
                        mention_descriptions: row.mention_descriptions,
                        mention_strengths: row.mention_strengths,
                        mention_subjects: row.mention_subjects,
                        mention_objects: row.mention_objects}]->(t)
