// Node counts per label of the graph model, for summaries and tests.
CALL () {
  MATCH (d:__Document__) RETURN count(d) AS documents
}
CALL () {
  MATCH (c:__Chunk__) RETURN count(c) AS chunks
}
CALL () {
  MATCH (e:__Entity__) RETURN count(e) AS entities
}
CALL () {
  MATCH ()-[r:RELATED]->() RETURN count(r) AS relations
}
CALL () {
  MATCH (c:__Community__) RETURN count(c) AS communities
}
RETURN documents, chunks, entities, relations, communities
