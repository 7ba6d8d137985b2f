// The entity-name fulltext index is eventually consistent (it keeps Lucene work out of every
// write commit); an index run ends by waiting until it has caught up, so name searches right
// after indexing see every entity.
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
