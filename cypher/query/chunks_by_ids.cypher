// The text and document of the given chunks, for the answer prompt.
UNWIND $ids AS id
MATCH (c:__Chunk__ {id: id})
OPTIONAL MATCH (c)-[:PART_OF]->(d:__Document__)
RETURN c.id AS chunk_id, coalesce(d.id, c.document_id) AS document_id,
       coalesce(d.title, '') AS title, c.text AS text
