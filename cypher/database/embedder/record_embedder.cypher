// Remember which embedder made the graph's vectors (the first one that ensured its schema; a
// graph from before this record takes the embedder that ensures it next), and return it.
MERGE (v:__Vectors__ {id: 'graph'})
ON CREATE SET v.embedder = $embedder, v.dimension = $dimension, v.recorded_at = datetime()
RETURN v.embedder AS embedder, v.dimension AS dimension
