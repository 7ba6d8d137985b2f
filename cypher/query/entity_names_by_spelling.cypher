// Entity names spelt like each name a generated query wrote (fuzzy fulltext), so a misspelt name
// can be written the graph's way; each $names row is {written, query}.
UNWIND $names AS written
CALL (written) {
  CALL db.index.fulltext.queryNodes('entity_name_fulltext', written.query, {limit: $limit})
  YIELD node
  RETURN node.name AS name
}
RETURN written.written AS written, collect(name) AS names
