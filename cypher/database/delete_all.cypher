// Delete the whole graph in batches (the test fixtures and benchmarks): relationships first, so
// that no batch of nodes drags a hub's many relationships into one transaction (a 1.5 million
// relation graph exceeded Neo4j's transaction memory when its nodes were detached 5,000 at a time).
MATCH ()-[r]->()
CALL (r) {
  DELETE r
} IN TRANSACTIONS OF 10000 ROWS;

MATCH (n)
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF 5000 ROWS;
