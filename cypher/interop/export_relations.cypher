// RELATED edges with their endpoints and chunks, for the parquet export.
MATCH (s:__Entity__)-[r:RELATED]->(t:__Entity__)
RETURN r.id AS id, s.id AS source_id, t.id AS target_id, s.name AS source, t.name AS target,
       r.predicate AS predicate, coalesce(r.description, '') AS description,
       coalesce(r.weight, 1.0) AS weight, coalesce(r.chunk_ids, []) AS chunk_ids,
       coalesce(s.degree, 0) + coalesce(t.degree, 0) AS combined_degree
ORDER BY combined_degree DESC, id
