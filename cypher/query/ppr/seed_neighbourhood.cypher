// PPR: the seeds' neighbourhood, two steps out over HAS_ENTITY (passage-entity) and RELATED
// (entity-entity) edges: the seed entities ($entity_ids) and passages ($chunk_ids), every node
// one edge from a seed, and every node one edge from those. A node with more than $max_degree
// edges (a hub: "United States") is reached but not expanded. One row: `nodes`, each with its
// degree in the whole graph (the walk's share along an edge is 1 / degree; edges leaving the
// neighbourhood take theirs away) and how many passages an entity is in, and `edges`, every
// edge traversed, by its ends' ids.
CALL () {
  UNWIND $entity_ids AS id
  MATCH (n:__Entity__ {id: id})
  RETURN n
  UNION
  UNWIND $chunk_ids AS id
  MATCH (n:__Chunk__ {id: id})
  RETURN n
}
WITH collect(n) AS seeds
CALL (seeds) {
  UNWIND seeds AS n
  WITH n WHERE COUNT { (n)-[:HAS_ENTITY|RELATED]-() } <= $max_degree
  MATCH (n)-[r:HAS_ENTITY|RELATED]-(m)
  RETURN collect(DISTINCT m) AS first, collect(DISTINCT r) AS first_edges
}
CALL (seeds, first) {
  UNWIND first AS n
  WITH n WHERE NOT n IN seeds AND COUNT { (n)-[:HAS_ENTITY|RELATED]-() } <= $max_degree
  MATCH (n)-[r:HAS_ENTITY|RELATED]-()
  RETURN collect(DISTINCT r) AS second_edges
}
CALL (first_edges, second_edges) {
  UNWIND first_edges + second_edges AS r
  RETURN collect(DISTINCT r) AS edges
}
// Aggregations without a grouping key hold only what they collect; a DISTINCT (or UNION) holds
// each row whole, the edge list in scope included, so none runs where that list is (at 30 edges
// a node, three seeds' read held 161 MB that way).
CALL (seeds, edges) {
  UNWIND [r IN edges | startNode(r)] + [r IN edges | endNode(r)] + seeds AS n
  RETURN collect(DISTINCT n) AS reached
}
CALL (reached) {
  UNWIND reached AS n
  RETURN collect({id: n.id, passage: n:__Chunk__,
                  degree: COUNT { (n)-[:HAS_ENTITY|RELATED]-() },
                  passages: COUNT { (n)<-[:HAS_ENTITY]-(:__Chunk__) }}) AS nodes
}
RETURN nodes,
       [r IN edges | {source: startNode(r).id, target: endNode(r).id,
                      passage: type(r) = 'HAS_ENTITY'}] AS edges
