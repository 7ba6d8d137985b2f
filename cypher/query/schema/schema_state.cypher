// What Text2Cypher's schema is read from, cheaply: each label's node count and each
// relationship type's count (from the count store) and the latest document indexing. The
// schema, whose samples read every node of a label, is read again only when this changes.
CALL db.labels() YIELD label
CALL (label) {
  MATCH (n:$(label))
  RETURN count(n) AS nodes
}
WITH collect([label, nodes]) AS labels
CALL db.relationshipTypes() YIELD relationshipType AS type
CALL (type) {
  MATCH ()-[r:$(type)]->()
  RETURN count(r) AS relationships
}
WITH labels, collect([type, relationships]) AS types
OPTIONAL MATCH (d:__Document__)
RETURN labels, types, max(d.indexed_at) AS indexed_at
