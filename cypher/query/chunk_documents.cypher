// The document of each given chunk (no text): a ranking's passages as documents, for eval.
UNWIND $ids AS id
MATCH (c:__Chunk__ {id: id})
OPTIONAL MATCH (c)-[:PART_OF]->(d:__Document__)
RETURN c.id AS chunk_id, coalesce(d.id, c.document_id) AS document_id
