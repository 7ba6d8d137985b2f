// Remove communities that no longer exist after re-clustering, with all their links.
UNWIND $rows AS row
MATCH (c:__Community__ {id: row.id})
DETACH DELETE c
