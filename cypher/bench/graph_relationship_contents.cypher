// Benchmark: every relationship with its type, ends and properties, for a graph fingerprint.
MATCH (a)-[r]->(b)
RETURN elementId(r) AS id, type(r) AS type, elementId(a) AS source, elementId(b) AS target,
       properties(r) AS properties
