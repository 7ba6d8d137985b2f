"""The local Neo4j server: Maven build of the launcher, configuration, process, Bolt probe."""
