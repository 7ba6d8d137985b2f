// Hybrid search: for each text (a question or one of its mentions), the $k entities whose name
// and description best match its words; each $texts row is {mention, query} with a word-only query.
UNWIND $texts AS text
CALL (text) {
  CALL db.index.fulltext.queryNodes('entity_text_fulltext', text.query, {limit: $k})
  YIELD node, score
  RETURN node, score
}
RETURN text.mention AS mention, node.id AS id, node.name AS name, score
ORDER BY mention, score DESC, id
