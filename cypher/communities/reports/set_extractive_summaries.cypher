// Store extractive titles and summaries. Every row records the hash of its community's
// extractive summary; rows with `replace` also take the report's place (status 'extractive',
// unrated, no findings, no report hash) and the community embedding: the row's vector, the one
// it has when `keep_embedding` (its title and summary are those it encodes), or none (a vector
// of the text replaced would be stale; a build writing reports embeds those instead).
UNWIND $rows AS row
MATCH (c:__Community__ {id: row.id})
SET c.extractive_hash = row.extractive_hash
WITH c, row
WHERE row.replace
SET c.title = row.title, c.summary = row.summary, c.full_content = row.full_content,
    c.rank = 0.0, c.rating_explanation = row.rating_explanation, c.findings = '[]',
    c.report_status = 'extractive', c.content_hash = null,
    c.embedding = CASE WHEN row.embedding IS NULL AND NOT row.keep_embedding THEN null
                       ELSE c.embedding END
WITH c, row
WHERE row.embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(c, 'embedding', row.embedding)
