// Chunks with their document and the entities they mention, for the parquet export.
MATCH (c:__Chunk__)
CALL (c) {
  OPTIONAL MATCH (c)-[:HAS_ENTITY]->(e:__Entity__)
  WITH e ORDER BY e.id
  RETURN collect(e.id) AS entity_ids
}
CALL (c) {
  OPTIONAL MATCH (c)-[:HAS_COVARIATE]->(v:__Covariate__)
  WITH v ORDER BY v.id
  RETURN collect(v.id) AS covariate_ids
}
OPTIONAL MATCH (c)-[:PART_OF]->(d:__Document__)
RETURN c.id AS id, c.text AS text, c.n_tokens AS n_tokens, coalesce(d.id, c.document_id)
         AS document_id, c.chunk_index AS chunk_index, entity_ids, covariate_ids
ORDER BY document_id, chunk_index, id
