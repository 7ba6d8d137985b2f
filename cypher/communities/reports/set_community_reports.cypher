// Store each community's report, the hash of what it was written from, and its embedding.
UNWIND $rows AS row
MATCH (c:__Community__ {id: row.id})
SET c.title = row.title, c.summary = row.summary, c.full_content = row.full_content,
    c.rank = row.rank, c.rating_explanation = row.rating_explanation,
    c.findings = row.findings, c.report_status = row.report_status,
    c.content_hash = row.content_hash
WITH c, row
WHERE row.embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(c, 'embedding', row.embedding)
