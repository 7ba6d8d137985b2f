// Delete every node of the workspace in batches (its relationships first: one hub's many
// relationships never go in one transaction). Relationships only ever join nodes of one
// workspace, so nothing of another workspace is touched; a stopped run resumes from here.
MATCH (n:__Document__|__Chunk__|__Entity__|__Community__|__Covariate__|__Merge__)-[r]->()
CALL (r) {
  DELETE r
} IN TRANSACTIONS OF 10000 ROWS;

MATCH (n:__Document__|__Chunk__|__Entity__|__Community__|__Covariate__|__Merge__|__Vectors__)
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF 5000 ROWS;
