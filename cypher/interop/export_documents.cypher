// Documents with their chunks in reading order, for the parquet export.
MATCH (d:__Document__)
CALL (d) {
  OPTIONAL MATCH (c:__Chunk__)-[:PART_OF]->(d)
  WITH c ORDER BY c.chunk_index
  RETURN collect(c.id) AS chunk_ids, collect(c.text) AS texts
}
RETURN d.id AS id, d.title AS title, toString(d.indexed_at) AS indexed_at, chunk_ids, texts
ORDER BY id
