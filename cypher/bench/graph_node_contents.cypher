// Benchmark: every node with its labels and properties, for a fingerprint of the whole graph.
MATCH (n)
RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS properties
