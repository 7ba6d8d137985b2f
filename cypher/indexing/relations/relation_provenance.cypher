// What the chunks say about each given relation, to refresh its description and weight; the
// stored description, weight and whether it has a vector let unchanged relations be skipped.
UNWIND $ids AS id
MATCH (s:__Entity__)-[r:RELATED {id: id}]->(t:__Entity__)
RETURN r.id AS id, s.name AS subject, r.predicate AS predicate, t.name AS object,
       r.mention_descriptions AS descriptions, r.mention_strengths AS strengths,
       r.description AS description, r.weight AS stored_weight,
       r.embedding IS NOT NULL AS embedded
