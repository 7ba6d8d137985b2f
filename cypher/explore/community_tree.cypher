// The community hierarchy: every community with its parent (level 0 is the coarsest).
// In Neo4j Browser, expand a community to see its members (IN_COMMUNITY).
MATCH (c:__Community__)
OPTIONAL MATCH p = (c)-[:PARENT_COMMUNITY]->(:__Community__)
RETURN c, p
