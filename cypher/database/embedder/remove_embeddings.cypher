// Remove every stored embedding in batches, so a new embedder recomputes them all.
MATCH (n)
WHERE n:__Chunk__ OR n:__Entity__ OR n:__Community__
CALL (n) {
  REMOVE n.embedding, n.description_embedding
} IN TRANSACTIONS OF 5000 ROWS
WITH count(*) AS nodes
MATCH ()-[r:RELATED]->()
WHERE r.embedding IS NOT NULL
CALL (r) {
  REMOVE r.embedding
} IN TRANSACTIONS OF 5000 ROWS
RETURN nodes, count(*) AS relations
