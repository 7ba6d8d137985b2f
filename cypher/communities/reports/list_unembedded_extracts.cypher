// Communities left with an extractive summary and no vector: after a build that wrote reports
// (their extracts were not embedded, as a report replaces them), the ones no report replaced.
MATCH (c:__Community__)
WHERE c.report_status = 'extractive' AND c.embedding IS NULL
RETURN c.id AS id, c.title AS title, c.summary AS summary
