// Which embedder made the graph's vectors, if recorded.
MATCH (v:__Vectors__ {id: 'graph'})
RETURN v.embedder AS embedder, v.dimension AS dimension
