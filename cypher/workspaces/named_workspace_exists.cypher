// Whether any named workspace has nodes in the database (its labels end with `$suffix_mark`):
// the default workspace's model-written queries are held to its labels only then. A label's
// token outlives its nodes (and its indexes keep it), so each is checked for one node.
CALL db.labels() YIELD label
WITH label WHERE label CONTAINS $suffix_mark
CALL (label) {
  MATCH (n:$(label))
  WITH n LIMIT 1
  RETURN count(n) AS present
}
RETURN coalesce(sum(present), 0) > 0 AS shared
