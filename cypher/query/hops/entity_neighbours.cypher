// Hops: one expansion step, the entities one RELATED edge away from the given ones.
UNWIND $ids AS id
MATCH (:__Entity__ {id: id})-[:RELATED]-(neighbour:__Entity__)
RETURN DISTINCT neighbour.id AS id
