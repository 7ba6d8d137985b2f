// The merge audit trail: what was folded into which entity, why, who decided, and whether the
// merge was undone since (an undone merge outlives its entity as a veto).
MATCH (m:__Merge__)
OPTIONAL MATCH (m)-[:MERGED_INTO]->(e:__Entity__)
RETURN m.id AS id, m.from_name AS from_name, m.from_type AS from_type,
       coalesce(e.name, m.into_name) AS into_name, coalesce(e.id, m.into_id) AS into_id,
       m.reason AS reason, m.decided_by AS decided_by, m.created_at AS created_at,
       m.undone_at IS NOT NULL AS undone
ORDER BY into_name, m.from_name
