// Entities whose name is one of $names, for the benchmark's list of expected characters.
MATCH (e:__Entity__)
WHERE e.name IN $names
RETURN e.name AS name, e.type AS type, coalesce(e.degree, 0) AS degree,
       coalesce(e.description, '') AS description
