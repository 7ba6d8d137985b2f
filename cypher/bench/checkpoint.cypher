// Flush every index and store to disk (after writes), so their files show their size.
CALL db.checkpoint()
