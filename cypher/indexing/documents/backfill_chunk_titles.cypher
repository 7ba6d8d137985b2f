// Chunks written before chunks carried their document's title (for the chunk fulltext index).
MATCH (c:__Chunk__)
WHERE c.title IS NULL
CALL (c) {
  OPTIONAL MATCH (c)-[:PART_OF]->(d:__Document__)
  SET c.title = coalesce(d.title, '')
} IN TRANSACTIONS OF 10000 ROWS
