// Create or update chunks with their embeddings, character span, pages and heading path, and
// link them to their document.
UNWIND $rows AS row
MATCH (d:__Document__ {id: row.document_id})
MERGE (c:__Chunk__ {id: row.id})
SET c.text = row.text, c.n_tokens = row.n_tokens, c.chunk_index = row.chunk_index,
    c.document_id = row.document_id, c.title = coalesce(d.title, ''),
    c.char_start = row.char_start, c.char_end = row.char_end, c.page_start = row.page_start,
    c.page_end = row.page_end, c.section = row.section
MERGE (c)-[:PART_OF]->(d)
WITH c, row
CALL db.create.setNodeVectorProperty(c, 'embedding', row.embedding)
