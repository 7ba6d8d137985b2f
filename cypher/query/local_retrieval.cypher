// Local search context. The entities are $seed_ids, the entities the question names (found by
// name in Python), then up to $passage_entities of those the question's best passages
// ($chunk_scores: id -> score) mention (those of the best passage first, the most frequent
// first), then the $top_k whose vectors are nearest the question ($query_vector). The passage
// entities matter where vectors encode names only (fast graphs): a question that names no one,
// such as "who is Scrooge's clerk?", finds its answer's entities only through the passages.
// The passages are $chunk_ids in their order (ranked in Python as hops ranks them without its
// rerank: similarity plus the best relation near the question). Then the entities' highest
// ranked community reports, their relations (inside the set first, a budget per entity) and
// their descriptions.
// Communities holding only an extractive summary ($extractive: sentences picked from member
// descriptions, no LLM report) are left out: the passages say the same in context.
// One row, even when nothing is found: `text` is never null, `score` is the best
// vector score and every entity keeps its own score in `metadata`.
CALL db.index.vector.queryNodes('entity_description_embedding', $top_k, $query_vector)
YIELD node, score
WITH node, score
LIMIT $top_k
WITH collect({node: node, score: score}) AS vector_hits
CALL () {
  UNWIND $seed_ids AS seed_id
  MATCH (seed:__Entity__ {id: seed_id})
  RETURN collect({node: seed,
                  score: coalesce(vector.similarity.cosine(seed.description_embedding,
                                                           $query_vector), 0.0)}) AS seeds
}
CALL (seeds) {
  UNWIND keys($chunk_scores) AS chunk_id
  MATCH (:__Chunk__ {id: chunk_id})-[:HAS_ENTITY]->(e:__Entity__)
  WHERE NOT e IN [seed IN seeds | seed.node]
  WITH e, max($chunk_scores[chunk_id]) AS support
  ORDER BY support DESC, coalesce(e.frequency, 0) DESC, e.id
  LIMIT $passage_entities
  RETURN collect({node: e,
                  score: coalesce(vector.similarity.cosine(e.description_embedding,
                                                           $query_vector), 0.0)}) AS mentioned
}
WITH vector_hits, seeds, seeds + mentioned AS named
WITH vector_hits, seeds,
     named + [hit IN vector_hits WHERE NOT hit.node IN [n IN named | n.node]] AS hits
WITH vector_hits, hits, [hit IN hits | hit.node] AS nodes
CALL () {
  UNWIND range(0, size($chunk_ids) - 1) AS position
  MATCH (c:__Chunk__ {id: $chunk_ids[position]})
  WITH c, position
  ORDER BY position
  RETURN collect({id: c.id, document_id: c.document_id, text: c.text}) AS chunks
}
CALL (nodes) {
  UNWIND nodes AS n
  MATCH (n)-[:IN_COMMUNITY]->(community:__Community__)
  WHERE community.summary IS NOT NULL AND coalesce(community.report_status, '') <> $extractive
  WITH community, count(DISTINCT n) AS members
  ORDER BY community.rank DESC, members DESC, community.id
  LIMIT $top_communities
  RETURN collect({id: community.id, level: community.level, title: community.title,
                  rank: community.rank, summary: community.summary,
                  full_content: community.full_content}) AS reports
}
CALL (nodes) {
  UNWIND nodes AS n
  CALL (n, nodes) {
    MATCH (n)-[r:RELATED]-(other:__Entity__)
    WITH r, other IN nodes AS inside
    ORDER BY inside DESC, r.weight DESC, r.id
    LIMIT $rels_per_entity
    RETURN r, inside
  }
  WITH DISTINCT r, inside
  WITH r, inside, startNode(r) AS s, endNode(r) AS t
  ORDER BY inside DESC, r.weight DESC, r.id
  WITH collect({id: r.id, source: s.name, predicate: r.predicate, target: t.name,
                description: r.description, weight: r.weight, inside: inside,
                chunk_ids: coalesce(r.chunk_ids, [])}) AS rels
  RETURN [rel IN rels WHERE rel.inside][..$top_inside_rels] AS inside_rels,
         [rel IN rels WHERE NOT rel.inside][..$top_outside_rels] AS outside_rels
}
WITH vector_hits, hits, chunks, reports, inside_rels, outside_rels,
     [hit IN hits | {id: hit.node.id, name: hit.node.name, type: hit.node.type,
                     description: coalesce(hit.node.description, ''), score: hit.score,
                     frequency: hit.node.frequency, degree: hit.node.degree}] AS entities
RETURN coalesce(reduce(text = '', e IN entities | text + e.name + ': ' + e.description + '\n'), '')
         AS text,
       coalesce(vector_hits[0].score, 0.0) AS score,
       {entities: entities, chunks: chunks, reports: reports, inside_rels: inside_rels,
        outside_rels: outside_rels} AS metadata
