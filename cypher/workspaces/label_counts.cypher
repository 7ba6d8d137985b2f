// Every label of the database with its node count and every relationship type with its count
// (from the count store): `workspaces` groups them by the workspace each name belongs to.
CALL db.labels() YIELD label
CALL (label) {
  MATCH (n:$(label))
  RETURN count(n) AS count
}
RETURN label AS name, count
UNION ALL
CALL db.relationshipTypes() YIELD relationshipType
CALL (relationshipType) {
  MATCH ()-[r:$(relationshipType)]->()
  RETURN count(r) AS count
}
RETURN relationshipType AS name, count
