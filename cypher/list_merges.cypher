// The merge audit trail: what was folded into which entity, why, and who decided.
MATCH (m:__Merge__)-[:MERGED_INTO]->(e:__Entity__)
RETURN m.id AS id, m.from_name AS from_name, m.from_type AS from_type, e.name AS into_name,
       e.id AS into_id, m.reason AS reason, m.decided_by AS decided_by, m.created_at AS created_at
ORDER BY e.name, m.from_name
