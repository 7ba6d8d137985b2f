// Remove the mentions in chunks $chunk_ids from the given relations; relations left with none
// go. (The chunk list is one parameter, not one per row: a document's thousands of chunks.)
UNWIND $rows AS row
MATCH ()-[r:RELATED {id: row.id}]->()
WITH r, [i IN range(0, size(r.chunk_ids) - 1) WHERE NOT r.chunk_ids[i] IN $chunk_ids] AS keep
SET r.chunk_ids = [i IN keep | r.chunk_ids[i]],
    r.mention_descriptions = [i IN keep | r.mention_descriptions[i]],
    r.mention_strengths = [i IN keep | r.mention_strengths[i]],
    r.mention_subjects = [i IN keep | coalesce(r.mention_subjects[i], '')],
    r.mention_objects = [i IN keep | coalesce(r.mention_objects[i], '')]
WITH r
WHERE size(r.chunk_ids) = 0
DELETE r
