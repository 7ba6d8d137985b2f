// Delete the whole graph in batches (used by `graphrag-neo4j reset` and the test fixtures).
MATCH (n)
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF 5000 ROWS
