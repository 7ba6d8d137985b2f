// Delete the given chunks with their links, then the entities they mentioned that no chunk
// mentions any more, with their merge records; an undone merge stays behind as a veto
// (detached), so the merge is not made again later.
UNWIND $rows AS row
MATCH (c:__Chunk__ {id: row.id})
OPTIONAL MATCH (c)-[:HAS_ENTITY]->(e:__Entity__)
WITH collect(DISTINCT c) AS chunks, collect(DISTINCT e) AS mentioned
CALL (chunks) {
  UNWIND chunks AS c
  DETACH DELETE c
}
CALL (mentioned) {
  UNWIND mentioned AS e
  WITH e
  WHERE NOT EXISTS { (:__Chunk__)-[:HAS_ENTITY]->(e) }
  OPTIONAL MATCH (m:__Merge__)-[:MERGED_INTO]->(e)
  WHERE m.undone_at IS NULL
  DETACH DELETE m, e
  RETURN count(DISTINCT e) AS deleted
}
RETURN deleted
