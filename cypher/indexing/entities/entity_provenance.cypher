// What the chunks say about each given entity, and its graph degree, to refresh its description;
// the stored description, counts and whether it has a vector let unchanged entities be skipped.
UNWIND $ids AS id
MATCH (e:__Entity__ {id: id})
CALL (e) {
  OPTIONAL MATCH (c:__Chunk__)-[h:HAS_ENTITY]->(e)
  RETURN count(c) AS frequency, collect(h.description) AS descriptions
}
RETURN e.id AS id, e.name AS name, e.type AS type, frequency, descriptions,
       COUNT { (e)-[:RELATED]-() } AS degree, e.description AS description,
       e.frequency AS stored_frequency, e.degree AS stored_degree,
       e.description_embedding IS NOT NULL AS embedded
