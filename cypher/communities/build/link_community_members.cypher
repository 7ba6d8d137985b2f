// Make each community's IN_COMMUNITY links exactly its member list: drop links of entities that
// left, add links of entities that joined.
UNWIND $rows AS row
MATCH (c:__Community__ {id: row.id})
CALL (c, row) {
  MATCH (gone:__Entity__)-[link:IN_COMMUNITY]->(c)
  WHERE NOT gone.id IN row.member_ids
  DELETE link
}
CALL (c, row) {
  UNWIND row.member_ids AS member_id
  MATCH (e:__Entity__ {id: member_id})
  MERGE (e)-[:IN_COMMUNITY]->(c)
}
