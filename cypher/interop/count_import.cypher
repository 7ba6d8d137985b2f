// Counts of everything an import writes (placeholders: relationship ends with no entity row), for the import summary and the interop tests.
CALL () {
  MATCH (d:__Document__) RETURN count(d) AS documents
}
CALL () {
  MATCH (c:__Chunk__) RETURN count(c) AS chunks
}
CALL () {
  MATCH (e:__Entity__) WHERE e.placeholder IS NULL RETURN count(e) AS entities
}
CALL () {
  MATCH (e:__Entity__) WHERE e.placeholder RETURN count(e) AS placeholder_entities
}
CALL () {
  MATCH ()-[r:RELATED]->() RETURN count(r) AS relationships
}
CALL () {
  MATCH (c:__Community__) RETURN count(c) AS communities
}
CALL () {
  MATCH (c:__Community__) WHERE c.full_content IS NOT NULL RETURN count(c) AS reports
}
CALL () {
  MATCH (v:__Covariate__) RETURN count(v) AS covariates
}
CALL () {
  MATCH ()-[h:HAS_ENTITY]->() RETURN count(h) AS mentions
}
CALL () {
  MATCH ()-[m:IN_COMMUNITY]->() RETURN count(m) AS memberships
}
CALL () {
  MATCH ()-[p:PARENT_COMMUNITY]->() RETURN count(p) AS parent_links
}
RETURN documents, chunks, entities, placeholder_entities, relationships, communities, reports, covariates, mentions,
       memberships, parent_links
