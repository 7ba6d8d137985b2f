// Every document with its chunk count, whether indexing finished, how it was extracted
// (documents written before extraction_method existed were LLM-extracted) and its language.
MATCH (d:__Document__)
RETURN d.id AS id, d.title AS title, d.source AS source, d.indexed_at IS NOT NULL AS complete,
       COUNT { (:__Chunk__)-[:PART_OF]->(d) } AS chunks,
       coalesce(d.extraction_method, 'llm') AS extraction_method,
       coalesce(d.language, 'unknown') AS language
ORDER BY d.source, d.id
SKIP $skip LIMIT $limit
