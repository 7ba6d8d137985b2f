// Chain consecutive chunks of a document in reading order.
UNWIND $rows AS row
MATCH (a:__Chunk__ {id: row.from_id})
MATCH (b:__Chunk__ {id: row.to_id})
MERGE (a)-[:NEXT_CHUNK]->(b)
