// Keep an undone merge for the audit trail, marked so that no later run applies it again. The
// surviving entity is copied onto the record: the veto outlives that entity's deletion.
MATCH (m:__Merge__ {id: $id})-[:MERGED_INTO]->(e:__Entity__)
SET m.undone_at = datetime(), m.into_id = e.id, m.into_name = e.name
