// Entities with the chunks that mention them, for the parquet export.
MATCH (e:__Entity__)
CALL (e) {
  OPTIONAL MATCH (c:__Chunk__)-[:HAS_ENTITY]->(e)
  WITH c ORDER BY c.id
  RETURN collect(c.id) AS chunk_ids
}
RETURN e.id AS id, e.name AS name, e.type AS type, coalesce(e.description, '') AS description,
       coalesce(e.frequency, size(chunk_ids)) AS frequency,
       coalesce(e.degree, COUNT { (e)-[:RELATED]-() }) AS degree, chunk_ids
ORDER BY degree DESC, id
