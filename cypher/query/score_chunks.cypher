// Hops: how near each candidate chunk is to the question, with its document and how that
// document was extracted (no text).
UNWIND $ids AS id
MATCH (c:__Chunk__ {id: id})
OPTIONAL MATCH (c)-[:PART_OF]->(d:__Document__)
RETURN c.id AS chunk_id, coalesce(d.id, c.document_id) AS document_id,
       coalesce(d.extraction_method, '') AS extraction_method,
       coalesce(vector.similarity.cosine(c.embedding, $embedding), -1.0) AS score
