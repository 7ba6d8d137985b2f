// Which of the given documents are already fully indexed, with their content hash, and whether
// any of their chunks was written before chunks kept their span, pages and section; for one
// that is not, how many of its chunks whole batches wrote and the id of the last of them.
UNWIND $ids AS id
MATCH (d:__Document__ {id: id})
RETURN d.id AS id, d.content_hash AS content_hash, d.indexed_at IS NOT NULL AS complete,
       coalesce(d.indexed_chunks, 0) AS indexed_chunks,
       CASE WHEN d.indexed_at IS NULL
         THEN head([(c:__Chunk__)-[:PART_OF]->(d) WHERE c.chunk_index = d.indexed_chunks - 1
                    | c.id])
       END AS last_chunk_id,
       d.indexed_at IS NOT NULL
         AND EXISTS { MATCH (c:__Chunk__)-[:PART_OF]->(d) WHERE c.char_start IS NULL }
         AS places_missing
