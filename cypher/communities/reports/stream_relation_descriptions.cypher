// Every relation with its ends and description, the other source of extractive summary
// sentences (a relation without a description reads as "source predicate target").
MATCH (a:__Entity__)-[r:RELATED]->(b:__Entity__)
RETURN a.id AS source_id, b.id AS target_id,
       coalesce(r.description, a.name + ' ' + coalesce(r.predicate, 'related to') + ' ' + b.name)
         AS description
