// Communities no entity is linked to: a build stopped after writing them, before their members.
MATCH (c:__Community__)
WHERE NOT EXISTS { MATCH (:__Entity__)-[:IN_COMMUNITY]->(c) }
RETURN count(c) AS memberless
