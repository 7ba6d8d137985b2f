// Where each given chunk lies: its document, file, pages, heading path and character span
// (null on chunks indexed before these were recorded).
UNWIND $ids AS id
MATCH (c:__Chunk__ {id: id})
OPTIONAL MATCH (c)-[:PART_OF]->(d:__Document__)
RETURN c.id AS chunk_id, coalesce(d.id, c.document_id) AS document_id,
       coalesce(d.title, c.title, '') AS document, d.source AS path,
       c.page_start AS page_start, c.page_end AS page_end, c.section AS section,
       c.char_start AS char_start, c.char_end AS char_end, c.chunk_index AS chunk_index
