// Delete the given entities that no chunk mentions any more, with their merge records; an
// undone merge stays behind as a veto (detached), so the merge is not made again later.
UNWIND $entity_ids AS entity_id
MATCH (e:__Entity__ {id: entity_id})
WHERE NOT EXISTS { (:__Chunk__)-[:HAS_ENTITY]->(e) }
OPTIONAL MATCH (m:__Merge__)-[:MERGED_INTO]->(e)
WHERE m.undone_at IS NULL
DETACH DELETE m, e
RETURN count(DISTINCT e) AS deleted
