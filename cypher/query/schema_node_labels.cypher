// The live node labels for Text2Cypher's schema: each label's node count, the other labels its
// nodes carry, and its properties with a few distinct sample values (from $sample_nodes nodes:
// the most mentioned first, then by id, so the same graph always shows the same samples).
CALL db.labels() YIELD label
WITH label WHERE NOT label IN $hidden_labels
CALL (label) {
  MATCH (n:$(label))
  RETURN count(n) AS nodes
}
CALL (label) {
  MATCH (n:$(label))
  WITH n ORDER BY n.frequency DESC, n.id LIMIT $sample_nodes
  UNWIND [key IN keys(n) WHERE NOT key IN $hidden_properties] AS key
  WITH key, n[key] AS value
  WITH key, collect(DISTINCT value) AS values
  RETURN collect({key: key, samples: values[..$samples]}) AS properties
}
CALL (label) {
  MATCH (n:$(label))
  WITH n ORDER BY n.frequency DESC, n.id LIMIT $sample_nodes
  UNWIND labels(n) AS other
  WITH DISTINCT other WHERE other <> label AND NOT other IN $hidden_labels
  RETURN collect(other) AS also
}
RETURN label, nodes, also, properties
ORDER BY nodes DESC, label
