// Hops: how near each candidate chunk is to the question, with its document and whether that
// document's relations are co-occurrences (as its extraction method declared; no text).
UNWIND $ids AS id
MATCH (c:__Chunk__ {id: id})
OPTIONAL MATCH (c)-[:PART_OF]->(d:__Document__)
RETURN c.id AS chunk_id, coalesce(d.id, c.document_id) AS document_id,
       coalesce(d.cooccurrence_relations, false) AS cooccurrence_relations,
       coalesce(vector.similarity.cosine(c.embedding, $embedding), -1.0) AS score
