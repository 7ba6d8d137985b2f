// Point each community at its parent (none for level 0), replacing a parent link that changed.
UNWIND $rows AS row
MATCH (c:__Community__ {id: row.id})
CALL (c, row) {
  MATCH (c)-[old:PARENT_COMMUNITY]->(p:__Community__)
  WHERE row.parent_id IS NULL OR p.id <> row.parent_id
  DELETE old
}
CALL (c, row) {
  MATCH (parent:__Community__ {id: row.parent_id})
  MERGE (c)-[:PARENT_COMMUNITY]->(parent)
}
