// Per-chunk provenance of relations: one RELATED edge per (source, predicate, target) holding
// the chunks that state it, what each of them said and the names each used for both ends
// (so an entity merge can be undone mention by mention). One row per relation (grouped by the
// caller); a chunk already on the edge is not appended again. Everything happens inside the
// MERGE, so the plan has no Eager barrier.
UNWIND $rows AS row
MATCH (s:__Entity__ {id: row.source_id})
MATCH (t:__Entity__ {id: row.target_id})
MERGE (s)-[r:RELATED {id: row.id}]->(t)
ON CREATE SET r.predicate = row.predicate, r.chunk_ids = row.chunk_ids,
              r.mention_descriptions = row.descriptions, r.mention_strengths = row.strengths,
              r.mention_subjects = row.subjects, r.mention_objects = row.objects
// The new mentions are picked against the old chunk list, so chunk_ids is set last. An edge
// written before names were kept gets '' for each older mention, so the lists stay aligned.
ON MATCH SET
  r.mention_descriptions = r.mention_descriptions
    + [i IN range(0, size(row.chunk_ids) - 1)
       WHERE NOT row.chunk_ids[i] IN r.chunk_ids | row.descriptions[i]],
  r.mention_strengths = r.mention_strengths
    + [i IN range(0, size(row.chunk_ids) - 1)
       WHERE NOT row.chunk_ids[i] IN r.chunk_ids | row.strengths[i]],
  r.mention_subjects = coalesce(r.mention_subjects, [c IN r.chunk_ids | ''])
    + [i IN range(0, size(row.chunk_ids) - 1)
       WHERE NOT row.chunk_ids[i] IN r.chunk_ids | row.subjects[i]],
  r.mention_objects = coalesce(r.mention_objects, [c IN r.chunk_ids | ''])
    + [i IN range(0, size(row.chunk_ids) - 1)
       WHERE NOT row.chunk_ids[i] IN r.chunk_ids | row.objects[i]],
  r.chunk_ids = r.chunk_ids + [c IN row.chunk_ids WHERE NOT c IN r.chunk_ids]
