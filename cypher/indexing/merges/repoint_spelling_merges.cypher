// When a merge is undone, other spellings of the restored name that were folded into the same
// survivor (e.g. "euler" with "Euler") belong to the restored entity again.
MATCH (restored:__Entity__ {id: $from_id})
MATCH (m:__Merge__ {from_key: $from_key})-[old:MERGED_INTO]->(:__Entity__ {id: $into_id})
WHERE m.id <> $merge_id AND m.undone_at IS NULL
DELETE old
MERGE (m)-[:MERGED_INTO]->(restored)
