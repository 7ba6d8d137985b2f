// Test: $nodes entities, each RELATED to the entities $jumps positions ahead and behind (a
// circulant graph: every entity has 2 * size($jumps) edges, none a hub), the neighbourhood
// read's worst case when 2 * size($jumps) is search.ppr.max_degree.
UNWIND range(0, $nodes - 1) AS i
CREATE (:__Entity__ {id: 'dense-' + i, name: 'dense ' + i});
UNWIND range(0, $nodes - 1) AS i
UNWIND $jumps AS jump
MATCH (a:__Entity__ {id: 'dense-' + i})
MATCH (b:__Entity__ {id: 'dense-' + ((i + jump) % $nodes)})
CREATE (a)-[:RELATED {id: 'dense-' + i + '-' + jump}]->(b)
