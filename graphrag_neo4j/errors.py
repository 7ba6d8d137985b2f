"""User-facing error types: each carries one sentence naming the input and the fix."""


class GraphRAGError(Exception):
    """A mistake or missing prerequisite the user can fix; the CLI prints it without a traceback."""


class ConfigError(GraphRAGError):
    """The settings are invalid or point at something that does not exist."""


class Neo4jUnavailableError(GraphRAGError):
    """The Neo4j server cannot be reached or refused the credentials."""


class SchemaMismatchError(GraphRAGError):
    """An existing index disagrees with what the configured embedder needs."""


class ModelError(GraphRAGError):
    """A model could not be loaded, downloaded or verified."""


class InputError(GraphRAGError):
    """An input file or argument cannot be used."""
