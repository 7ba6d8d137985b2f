// Undone merges of the given normalised names: (from_key, into_id) pairs never to merge again.
UNWIND $keys AS key
MATCH (m:__Merge__ {from_key: key})
WHERE m.undone_at IS NOT NULL
RETURN DISTINCT key AS from_key, m.into_id AS into_id
