// Every document with its chunk count and whether indexing finished.
MATCH (d:__Document__)
RETURN d.id AS id, d.title AS title, d.source AS source, d.indexed_at IS NOT NULL AS complete,
       COUNT { (:__Chunk__)-[:PART_OF]->(d) } AS chunks
ORDER BY d.source, d.id
SKIP $skip LIMIT $limit
