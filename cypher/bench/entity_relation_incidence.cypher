// Benchmark: every RELATED edge with its endpoints, to build the notebook's adjacency matrices.
MATCH (s:__Entity__)-[r:RELATED]->(t:__Entity__)
RETURN r.id AS id, s.id AS source_id, t.id AS target_id
