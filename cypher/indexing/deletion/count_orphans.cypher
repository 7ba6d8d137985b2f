// Entities no chunk mentions and relations with no source chunk: both must be zero.
CALL () {
  MATCH (e:__Entity__)
  WHERE NOT EXISTS { (:__Chunk__)-[:HAS_ENTITY]->(e) }
  RETURN count(e) AS entities
}
CALL () {
  MATCH ()-[r:RELATED]->()
  WHERE size(coalesce(r.chunk_ids, [])) = 0
  RETURN count(r) AS relations
}
RETURN entities, relations
