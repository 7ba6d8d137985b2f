// Everything a document's chunks from position $from_chunk on are the source of: those chunks,
// their entities and relations ($from_chunk 0: the whole document).
MATCH (d:__Document__ {id: $id})
OPTIONAL MATCH (c:__Chunk__)-[:PART_OF]->(d)
WHERE c.chunk_index >= $from_chunk
WITH d, collect(c.id) AS chunk_ids
CALL (chunk_ids) {
  UNWIND chunk_ids AS chunk_id
  MATCH (:__Chunk__ {id: chunk_id})-[:HAS_ENTITY]->(e:__Entity__)
  RETURN collect(DISTINCT e.id) AS entity_ids
}
CALL (entity_ids, chunk_ids) {
  UNWIND entity_ids AS entity_id
  MATCH (:__Entity__ {id: entity_id})-[r:RELATED]-()
  WHERE any(x IN r.chunk_ids WHERE x IN chunk_ids)
  RETURN collect(DISTINCT r.id) AS relation_ids
}
RETURN d.id AS id, chunk_ids, entity_ids, relation_ids
