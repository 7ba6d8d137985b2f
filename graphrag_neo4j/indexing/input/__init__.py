"""Reading the input: loaders, record files, triplet corpora, chunking, limits, shards."""
