// Audit trail of entity merges: (:__Merge__)-[:MERGED_INTO]->(:__Entity__). from_key lets later
// runs reuse the decision; the surface names on HAS_ENTITY let a merge be undone.
UNWIND $rows AS row
MATCH (e:__Entity__ {id: row.into_id})
MERGE (m:__Merge__ {id: row.id})
ON CREATE SET m.created_at = datetime()
SET m.from_id = row.from_id, m.from_name = row.from_name, m.from_type = row.from_type,
    m.from_key = row.from_key, m.reason = row.reason, m.decided_by = row.decided_by
MERGE (m)-[:MERGED_INTO]->(e)
