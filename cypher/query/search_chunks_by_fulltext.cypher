// Hybrid search: the $k chunks whose text best matches the question's words (BM25), with their
// document; $query holds word characters only (see query/hybrid.py), so it needs no escaping.
CALL db.index.fulltext.queryNodes('chunk_text_fulltext', $query, {limit: $k}) YIELD node, score
OPTIONAL MATCH (node)-[:PART_OF]->(d:__Document__)
RETURN node.id AS chunk_id, coalesce(d.id, node.document_id) AS document_id,
       coalesce(d.title, '') AS title, node.text AS text, score
ORDER BY score DESC, chunk_id
