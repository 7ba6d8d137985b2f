// Create or update chunks with their embeddings and link them to their document.
UNWIND $rows AS row
MATCH (d:__Document__ {id: row.document_id})
MERGE (c:__Chunk__ {id: row.id})
SET c.text = row.text, c.n_tokens = row.n_tokens, c.chunk_index = row.chunk_index,
    c.document_id = row.document_id, c.title = coalesce(d.title, '')
MERGE (c)-[:PART_OF]->(d)
WITH c, row
CALL db.create.setNodeVectorProperty(c, 'embedding', row.embedding)
