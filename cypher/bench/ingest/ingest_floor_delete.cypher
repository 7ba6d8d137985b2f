// Benchmark clean-up: remove the floor's BENCH_REL edges in batches.
MATCH ()-[r:BENCH_REL]->()
CALL (r) {
  DELETE r
} IN TRANSACTIONS OF 10000 ROWS
