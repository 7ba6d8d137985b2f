// The entity graph for Leiden: one undirected edge per entity pair, parallel RELATED weights
// summed (a missing or non-positive weight counts as 1), self-loops kept.
MATCH (a:__Entity__)-[r:RELATED]->(b:__Entity__)
WITH CASE WHEN a.id <= b.id THEN a.id ELSE b.id END AS source,
     CASE WHEN a.id <= b.id THEN b.id ELSE a.id END AS target,
     CASE WHEN r.weight > 0 THEN toFloat(r.weight) ELSE 1.0 END AS weight
RETURN source, target, sum(weight) AS weight
ORDER BY source, target
