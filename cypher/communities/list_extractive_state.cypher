// Each community's report status, the hash of its last extractive summary and whether it has
// a vector: what decides if the extractive stage must (re)write it.
MATCH (c:__Community__)
RETURN c.id AS id, c.report_status AS report_status, c.extractive_hash AS extractive_hash,
       c.embedding IS NOT NULL AS embedded
