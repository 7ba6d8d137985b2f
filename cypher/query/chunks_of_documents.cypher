// Every chunk of the given documents, in the order of the ids and then of the text.
UNWIND range(0, size($ids) - 1) AS position
MATCH (d:__Document__ {id: $ids[position]})<-[:PART_OF]-(c:__Chunk__)
RETURN c.id AS chunk_id, d.id AS document_id, coalesce(d.title, '') AS title, c.text AS text
ORDER BY position, c.chunk_index, c.id
