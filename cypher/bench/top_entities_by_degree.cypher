// The best-connected entities, for the fast-indexing benchmark's summary.
MATCH (e:__Entity__)
RETURN e.name AS name, e.type AS type, coalesce(e.degree, 0) AS degree,
       coalesce(e.frequency, 0) AS frequency
ORDER BY degree DESC, name
LIMIT $limit
