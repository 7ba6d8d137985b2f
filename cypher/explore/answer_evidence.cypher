// The evidence subgraph of an answer: the entities, relations, chunks (with their documents) and
// communities its context used. `graphrag-neo4j query ... --show-cypher` prints this query with
// the :param lines that set $entity_ids, $relation_ids, $chunk_ids and $community_ids.
CALL () {
  MATCH p = (:__Entity__)-[r:RELATED]->(:__Entity__)
  WHERE r.id IN $relation_ids
  RETURN p
  UNION
  MATCH p = (c:__Chunk__)-[:HAS_ENTITY]->(e:__Entity__)
  WHERE c.id IN $chunk_ids AND e.id IN $entity_ids
  RETURN p
  UNION
  MATCH p = (c:__Chunk__)-[:PART_OF]->(:__Document__)
  WHERE c.id IN $chunk_ids
  RETURN p
  UNION
  MATCH p = (e:__Entity__)-[:IN_COMMUNITY]->(c:__Community__)
  WHERE e.id IN $entity_ids AND c.id IN $community_ids
  RETURN p
  UNION
  MATCH p = (a:__Community__)-[:PARENT_COMMUNITY]->(b:__Community__)
  WHERE a.id IN $community_ids AND b.id IN $community_ids
  RETURN p
  UNION
  MATCH p = (e:__Entity__)
  WHERE e.id IN $entity_ids
  RETURN p
  UNION
  MATCH p = (c:__Community__)
  WHERE c.id IN $community_ids
  RETURN p
}
RETURN p
