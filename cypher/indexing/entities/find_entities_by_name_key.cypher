// Stored entities with the given normalised names, directly or through a recorded merge
// (so "Euler", once merged into "Leonhard Euler", resolves there again without asking the LLM).
// An undone merge no longer leads anywhere.
UNWIND $keys AS key
CALL (key) {
  MATCH (e:__Entity__ {name_key: key})
  RETURN e
  UNION
  MATCH (m:__Merge__ {from_key: key})-[:MERGED_INTO]->(e:__Entity__)
  WHERE m.undone_at IS NULL
  RETURN e
}
RETURN DISTINCT e.id AS id, e.name AS name, e.type AS type, key AS name_key,
       coalesce(e.description, '') AS description
