// Benchmark: counts that change if a re-run duplicated anything (edges or provenance entries).
CALL () {
  MATCH ()-[h:HAS_ENTITY]->() RETURN count(h) AS has_entity
}
CALL () {
  MATCH ()-[r:RELATED]->()
  RETURN count(r) AS related, sum(size(r.chunk_ids)) AS related_chunk_ids,
         sum(size(r.mention_descriptions)) AS related_descriptions,
         sum(size(r.mention_strengths)) AS related_strengths,
         count(r.embedding) AS related_embedded, sum(r.weight) AS related_weight
}
CALL () {
  MATCH (e:__Entity__)
  RETURN count(e) AS entities, count(e.description_embedding) AS entities_embedded,
         sum(e.frequency) AS entity_frequency, sum(e.degree) AS entity_degree
}
CALL () {
  MATCH (m:__Merge__)-[:MERGED_INTO]->() RETURN count(m) AS merges
}
CALL () {
  MATCH ()-[n:NEXT_CHUNK]->() RETURN count(n) AS next_chunk
}
CALL () {
  MATCH ()-[p:PART_OF]->() RETURN count(p) AS part_of
}
RETURN has_entity, related, related_chunk_ids, related_descriptions, related_strengths,
       related_embedded, related_weight, entities, entities_embedded, entity_frequency,
       entity_degree, merges, next_chunk, part_of
