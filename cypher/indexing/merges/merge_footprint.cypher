// One recorded merge and everything it touched: the surviving entity's chunk mentions and
// relations, each with the names its chunk used, so the merge can be undone mention by mention.
MATCH (m:__Merge__ {id: $id})-[:MERGED_INTO]->(e:__Entity__)
RETURN m.id AS id, m.from_id AS from_id, m.from_name AS from_name, m.from_type AS from_type,
       m.decided_by AS decided_by, m.undone_at IS NOT NULL AS undone,
       e.id AS into_id, e.name AS into_name,
       [(c:__Chunk__)-[h:HAS_ENTITY]->(e) |
        {chunk_id: c.id, surface_names: coalesce(h.surface_names, []),
         description: coalesce(h.description, ''), surface_type: h.surface_type}] AS mentions,
       [(e)-[r:RELATED]->(t:__Entity__) WHERE t <> e |
        {id: r.id, source_id: e.id, target_id: t.id, predicate: r.predicate,
         chunk_ids: r.chunk_ids, descriptions: r.mention_descriptions,
         strengths: r.mention_strengths, subjects: r.mention_subjects,
         objects: r.mention_objects}]
     + [(s:__Entity__)-[r:RELATED]->(e) WHERE s <> e |
        {id: r.id, source_id: s.id, target_id: e.id, predicate: r.predicate,
         chunk_ids: r.chunk_ids, descriptions: r.mention_descriptions,
         strengths: r.mention_strengths, subjects: r.mention_subjects,
         objects: r.mention_objects}] AS relations
