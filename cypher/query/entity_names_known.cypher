// Which of the normalised names $keys the graph holds as an entity, directly or through a
// recorded merge ("Scrooge" merged into "Ebenezer Scrooge"): grounding accepts a name of an
// answer written from summaries (global search's reports) when the graph knows it.
UNWIND $keys AS key
CALL (key) {
  MATCH (e:__Entity__ {name_key: key})
  RETURN e
  UNION
  MATCH (m:__Merge__ {from_key: key})-[:MERGED_INTO]->(e:__Entity__)
  WHERE m.undone_at IS NULL
  RETURN e
}
RETURN DISTINCT key
