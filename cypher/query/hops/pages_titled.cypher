// Hops: the passages of the pages titled by one of $titles, with or without a bracketed
// qualifier ("Frank Lloyd", "Somalia (disambiguation)"), per title. Seeks the chunk_title index.
UNWIND $titles AS title
MATCH (c:__Chunk__)
WHERE c.title = title OR c.title STARTS WITH title + ' ('
RETURN title AS name, collect(c.id) AS chunk_ids
ORDER BY name
