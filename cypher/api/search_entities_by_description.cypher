// The $limit entities whose description vectors are nearest to $embedding (asks $candidates).
CALL db.index.vector.queryNodes('entity_description_embedding', $candidates, $embedding)
YIELD node, score
RETURN node.id AS id, node.name AS name, node.type AS type,
       left(coalesce(node.description, ''), $description_chars) AS description,
       coalesce(node.degree, 0) AS degree, score
ORDER BY score DESC
LIMIT $limit
