// The description style of the document each given relation was last described by: of the
// documents of the chunks it was read in, the one indexed last (one still being written counts
// as the latest). Its style properties are null for a document indexed before they were
// recorded; a relation no document supports has no row.
UNWIND $ids AS id
MATCH ()-[r:RELATED {id: id}]->()
CALL (r) {
  UNWIND coalesce(r.chunk_ids, []) AS chunk_id
  MATCH (:__Chunk__ {id: chunk_id})-[:PART_OF]->(d:__Document__)
  WITH DISTINCT d
  ORDER BY d.indexed_at IS NULL DESC, d.indexed_at DESC, d.id
  LIMIT 1
  RETURN d
}
RETURN id, d.extraction_method AS extraction_method,
       d.description_llm_summaries AS llm_summaries, d.description_sentences AS sentences,
       d.description_vector_words AS vector_words
