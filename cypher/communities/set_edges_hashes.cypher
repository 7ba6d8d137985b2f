// Record on each top community the hash of the edges touching its members (null below).
UNWIND $rows AS row
MATCH (c:__Community__ {id: row.id})
SET c.edges_hash = row.edges_hash
