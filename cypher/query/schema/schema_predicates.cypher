// Text2Cypher's schema: the most common `predicate` values of RELATED relationships, with how
// many relationships carry each (the words a generated query can filter relations on).
MATCH ()-[r:RELATED]->()
WHERE r.predicate IS NOT NULL
RETURN r.predicate AS predicate, count(*) AS relationships
ORDER BY relationships DESC, predicate
LIMIT $limit
