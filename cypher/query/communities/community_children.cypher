// The reports of the sub-communities of the given communities (dynamic community selection).
UNWIND $ids AS parent_id
MATCH (child:__Community__)-[:PARENT_COMMUNITY]->(:__Community__ {id: parent_id})
WHERE child.full_content IS NOT NULL
RETURN parent_id, child.id AS id, child.level AS level, child.title AS title,
       child.summary AS summary, child.full_content AS full_content,
       coalesce(child.rank, 0.0) AS rank
ORDER BY parent_id, rank DESC, id
