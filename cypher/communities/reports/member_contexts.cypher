// What each would-be community's report would be written from, by its member entity ids (for
// estimates: nothing is written), with the stored report's hash under the id it would keep.
UNWIND $groups AS g
CALL (g) {
  MATCH (e:__Entity__) WHERE e.id IN g.members
  RETURN collect({id: e.id, name: e.name, type: e.type, description: e.description,
                  degree: e.degree}) AS entities
}
CALL (g) {
  MATCH (a:__Entity__) WHERE a.id IN g.members
  MATCH (a)-[r:RELATED]->(b:__Entity__) WHERE b.id IN g.members
  RETURN collect({id: r.id, source_id: a.id, source: a.name, target_id: b.id, target: b.name,
                  predicate: r.predicate, description: r.description, weight: r.weight,
                  degree: coalesce(a.degree, 0) + coalesce(b.degree, 0)}) AS relations
}
OPTIONAL MATCH (c:__Community__ {id: g.id})
RETURN g.id AS id, entities, relations, c.content_hash AS content_hash,
       c.report_status AS report_status
