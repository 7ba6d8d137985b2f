// Every entity that belongs to a community, with what its extractive summary reads: the name,
// the degree (which members lead the title) and the description (candidate sentences).
MATCH (e:__Entity__)
WHERE EXISTS { (e)-[:IN_COMMUNITY]->(:__Community__) }
RETURN e.id AS id, e.name AS name, coalesce(e.degree, 0) AS degree,
       coalesce(e.description, '') AS description
