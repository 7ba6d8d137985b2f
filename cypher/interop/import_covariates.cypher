// Create or update imported covariates (claims) and link them: the chunk that states the claim
// HAS_COVARIATE, the claim points at its SUBJECT and OBJECT entities when those names resolve.
UNWIND $rows AS row
MERGE (v:__Covariate__ {id: row.id})
SET v.covariate_type = row.covariate_type, v.type = row.type, v.description = row.description,
    v.status = row.status, v.start_date = row.start_date, v.end_date = row.end_date,
    v.source_text = row.source_text, v.subject = row.subject, v.object = row.object
WITH v, row
CALL (v, row) {
  MATCH (s:__Entity__ {id: row.subject_id})
  MERGE (v)-[:SUBJECT]->(s)
}
CALL (v, row) {
  MATCH (o:__Entity__ {id: row.object_id})
  MERGE (v)-[:OBJECT]->(o)
}
CALL (v, row) {
  MATCH (c:__Chunk__ {id: row.chunk_id})
  MERGE (c)-[:HAS_COVARIATE]->(v)
}
