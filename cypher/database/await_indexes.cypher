// Wait until every index is online: after a schema change, a new index is filled in the
// background, and a search would fail or miss rows until it is.
CALL db.awaitIndexes(3600)
