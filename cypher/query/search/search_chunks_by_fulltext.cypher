// Hybrid search: the $k chunks whose title and text best match the question's words (BM25), with
// their document; $query holds word characters only (see query/hybrid.py): no escaping needed.
CALL db.index.fulltext.queryNodes('chunk_fulltext', $query, {limit: $k}) YIELD node, score
OPTIONAL MATCH (node)-[:PART_OF]->(d:__Document__)
RETURN node.id AS chunk_id, coalesce(d.id, node.document_id) AS document_id,
       coalesce(d.title, '') AS title, node.text AS text, score
ORDER BY score DESC, chunk_id
