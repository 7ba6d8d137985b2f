"""English word stems, the one way the Cypher rewrites compare a word with another."""

from __future__ import annotations

from functools import cache

import snowballstemmer


def stem(word: str) -> str:
    """The Snowball English stem of a lower-case word: 'directed' -> 'direct'."""
    return str(_stemmer().stemWord(word))


@cache
def _stemmer() -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("english")
