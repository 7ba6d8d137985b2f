// A community's weight: how many distinct chunks mention at least one of its members.
UNWIND $rows AS row
MATCH (c:__Community__ {id: row.id})
CALL (c) {
  MATCH (c)<-[:IN_COMMUNITY]-(:__Entity__)<-[:HAS_ENTITY]-(chunk:__Chunk__)
  RETURN count(DISTINCT chunk) AS weight
}
SET c.weight = weight
