// How many documents were read from under each folder prefix (an upload's folder), so a
// folder is removed only once no document of it is left.
UNWIND $prefixes AS prefix
OPTIONAL MATCH (d:__Document__)
WHERE d.source STARTS WITH prefix
RETURN prefix, count(d) AS documents
