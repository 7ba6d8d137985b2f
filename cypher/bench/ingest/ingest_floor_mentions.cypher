// Benchmark floor: the bare cost of creating the chunk-entity mention rows, with no MERGE.
UNWIND $rows AS row
MATCH (s:__Chunk__ {id: row.source_id})
MATCH (t:__Entity__ {id: row.target_id})
CREATE (s)-[:BENCH_REL {description: row.description, surface_names: row.surface_names,
                        surface_type: row.surface_type}]->(t)
