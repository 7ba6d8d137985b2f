// The live node labels for Text2Cypher's schema: each label's node count, the other labels its
// nodes carry, and its properties with a few distinct sample values (from $sample_nodes nodes:
// the most mentioned first, then by id, so the same graph always shows the same samples).
// Only the workspace's labels ($workspace_suffix, from the store), each shown by the name the
// Cypher files use: a query names those, and the store makes them the workspace's.
CALL db.labels() YIELD label
WITH label WHERE CASE $workspace_suffix WHEN '' THEN NOT label CONTAINS '__ws_'
                 ELSE label ENDS WITH $workspace_suffix END
WITH label, left(label, size(label) - size($workspace_suffix)) AS shown
WHERE NOT shown IN $hidden_labels
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
  WITH DISTINCT left(other, size(other) - size($workspace_suffix)) AS other
  WHERE other <> left(label, size(label) - size($workspace_suffix))
    AND NOT other IN $hidden_labels
  RETURN collect(other) AS also
}
RETURN shown AS label, nodes, also, properties
ORDER BY nodes DESC, label
