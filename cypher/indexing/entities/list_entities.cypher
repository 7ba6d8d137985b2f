// Entities with their description state, for `graphrag-neo4j entities` and tests.
MATCH (e:__Entity__)
RETURN e.id AS id, e.name AS name, e.type AS type, e.description AS description,
       e.frequency AS frequency, e.degree AS degree,
       e.description_embedding IS NOT NULL AS embedded
ORDER BY e.frequency DESC, e.name
SKIP $skip LIMIT $limit
