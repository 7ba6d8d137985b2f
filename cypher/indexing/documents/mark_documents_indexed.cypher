// Record how far each document of a batch is written (its first `through` chunks, by whole
// batches) and mark the finished ones: a later run skips those and resumes the others.
UNWIND $rows AS row
MATCH (d:__Document__ {id: row.id})
SET d.indexed_chunks = row.through
WITH d, row
WHERE row.finished
SET d.indexed_at = datetime()
