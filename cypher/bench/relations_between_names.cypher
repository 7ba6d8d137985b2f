// RELATED edges between an entity named in $names and one named in $others, either direction.
MATCH (s:__Entity__)-[r:RELATED]->(t:__Entity__)
WHERE (s.name IN $names AND t.name IN $others) OR (s.name IN $others AND t.name IN $names)
RETURN s.name AS source, r.predicate AS predicate, t.name AS target, r.weight AS weight
ORDER BY weight DESC, source, target
