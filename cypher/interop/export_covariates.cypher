// Covariates (claims) with their subject, object and chunk, for the parquet export.
MATCH (v:__Covariate__)
OPTIONAL MATCH (c:__Chunk__)-[:HAS_COVARIATE]->(v)
RETURN v.id AS id, v.covariate_type AS covariate_type, v.type AS type,
       v.description AS description, v.subject AS subject, v.object AS object,
       v.status AS status, v.start_date AS start_date, v.end_date AS end_date,
       v.source_text AS source_text, c.id AS chunk_id
ORDER BY id
