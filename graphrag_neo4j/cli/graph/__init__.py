"""Commands that build and prune the graph: index, delete, merges, communities, interop."""
