// Each community's report status, the hash of its last extractive summary, whether it has a
// vector and the text that vector encodes: what decides if the extractive stage must (re)write
// it, and whether its vector still fits.
MATCH (c:__Community__)
RETURN c.id AS id, c.report_status AS report_status, c.extractive_hash AS extractive_hash,
       c.embedding IS NOT NULL AS embedded, c.title AS title, c.summary AS summary
