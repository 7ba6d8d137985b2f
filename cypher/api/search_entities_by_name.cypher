// Entities whose names share words with $query (the fulltext index), best match first.
CALL db.index.fulltext.queryNodes('entity_name_fulltext', $query, {limit: $limit})
YIELD node, score
RETURN node.id AS id, node.name AS name, node.type AS type,
       left(coalesce(node.description, ''), $description_chars) AS description,
       coalesce(node.degree, 0) AS degree, score
