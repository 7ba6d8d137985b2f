// Entities of each type in the graph, most common first, for the index summary.
MATCH (e:__Entity__)
RETURN coalesce(e.type, 'unknown') AS type, count(e) AS entities
ORDER BY entities DESC, type
