"""User-facing error types: each carries one sentence naming the input and the fix; and the
one check of text that cannot be encoded, which every entry point runs."""


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


class ServerLimitError(GraphRAGError):
    """Neo4j refused a statement for a budget of its own (memory per transaction)."""


class InputError(GraphRAGError):
    """An input file or argument cannot be used."""


def check_text(value: object, what: str, fix: str = "send it as UTF-8") -> None:
    """Refuse, naming `what`, text UTF-8 cannot encode in `value` or any string inside it
    (mapping keys and values, list items): a lone surrogate, which is what Python makes of a
    byte that is not UTF-8 in a command-line argument or of a `\\ud800` escape in JSON."""
    if isinstance(value, str):
        _check_string(value, what, fix)
    elif isinstance(value, dict):
        for key, inner in value.items():
            check_text(key, f"{what} name", fix)
            check_text(inner, f"{what} {key}", fix)
    elif isinstance(value, list | tuple):
        for inner in value:
            check_text(inner, what, fix)


def _check_string(text: str, what: str, fix: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        # 0xDC80-0xDCFF is how Python's surrogateescape keeps an undecodable byte.
        shown = f"the byte \\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF \
            else f"the lone surrogate \\u{code:04x}"
        raise InputError(f"The {what} is not valid UTF-8 text ({shown} at character"
                         f" {exc.start + 1}): {fix}.") from None
