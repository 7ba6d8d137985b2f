// Stored entities with the given normalised names, for same-name resolution.
UNWIND $keys AS key
MATCH (e:__Entity__ {name_key: key})
RETURN e.id AS id, e.name AS name, e.type AS type, e.name_key AS name_key,
       coalesce(e.description, '') AS description
