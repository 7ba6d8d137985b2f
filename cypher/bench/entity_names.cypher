// Every entity's name, for the junk rate of a benchmark run.
MATCH (e:__Entity__)
RETURN e.name AS name
