// The live relationship types for Text2Cypher's schema: each type's count, the labels it
// joins (the graph-model label of each end) and its properties with a few sample values (from
// $sample_nodes relationships: the strongest first, then by their ends' ids, so the same graph
// always shows the same samples).
// Only the workspace's types ($workspace_suffix, from the store), shown by the files' names.
CALL db.relationshipTypes() YIELD relationshipType AS type
WITH type WHERE CASE $workspace_suffix WHEN '' THEN NOT type CONTAINS '__ws_'
                ELSE type ENDS WITH $workspace_suffix END
WITH type, left(type, size(type) - size($workspace_suffix)) AS shown
WHERE NOT shown IN $hidden_types
CALL (type) {
  MATCH ()-[r:$(type)]->()
  RETURN count(r) AS relationships
}
CALL (type) {
  MATCH (a)-[r:$(type)]->(b)
  WITH a, b ORDER BY r.weight DESC, a.id, b.id LIMIT $sample_nodes
  WITH DISTINCT [l IN labels(a) WHERE l STARTS WITH '__'][0] AS source,
       [l IN labels(b) WHERE l STARTS WITH '__'][0] AS target
  WITH left(source, size(source) - size($workspace_suffix)) AS source,
       left(target, size(target) - size($workspace_suffix)) AS target
  RETURN collect({source: source, target: target}) AS ends
}
CALL (type) {
  MATCH (a)-[r:$(type)]->(b)
  WITH r ORDER BY r.weight DESC, a.id, b.id LIMIT $sample_nodes
  UNWIND [key IN keys(r) WHERE NOT key IN $hidden_properties] AS key
  WITH key, r[key] AS value
  WITH key, collect(DISTINCT value) AS values
  RETURN collect({key: key, samples: values[..$samples]}) AS properties
}
RETURN shown AS type, relationships, ends, properties
ORDER BY relationships DESC, type
