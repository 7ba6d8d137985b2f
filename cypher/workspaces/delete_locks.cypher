// The workspace's lock nodes, last: a deletion under way holds none of them.
MATCH (l:__Lock__)
DETACH DELETE l
