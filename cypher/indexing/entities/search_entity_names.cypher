// Stored entities whose names share words with new ones (fulltext), as near-duplicate candidates.
UNWIND $queries AS q
CALL db.index.fulltext.queryNodes('entity_name_fulltext', q.text, {limit: $limit})
YIELD node, score
RETURN DISTINCT node.id AS id, node.name AS name, node.type AS type, node.name_key AS name_key,
       coalesce(node.description, '') AS description
