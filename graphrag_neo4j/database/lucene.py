"""Lucene queries for Neo4j's fulltext indexes, made of word characters only: whatever the
text holds (quotes, colons, tildes, brackets, `AND`), nothing can change a query's meaning or
break it, so nothing needs escaping."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+", flags=re.UNICODE)
# Words a question is made of that say nothing about its subject; BM25 would still reward them.
_STOP_WORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did", "do",
    "does", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it",
    "its", "of", "on", "or", "that", "the", "their", "then", "there", "these", "they", "this",
    "to", "was", "were", "what", "when", "where", "which", "who", "whom", "whose", "why", "will",
    "with", "would", "you", "your",
})
# Lucene refuses queries with more clauses than its limit; questions never need that many.
MAX_TERMS = 32
SHARED_WORD_LETTERS = 3  # shorter words are too common to say two names are alike


def _words(text: str) -> list[str]:
    """The text's words, lower-cased, each once, in order."""
    return list(dict.fromkeys(w.casefold() for w in _WORD.findall(text)))


def content_query(text: str) -> str:
    """The text's content words as an OR query, at most `MAX_TERMS` (empty: nothing to ask)."""
    kept = [w for w in _words(text) if w not in _STOP_WORDS and (len(w) > 1 or w.isdigit())]
    return " ".join(kept[:MAX_TERMS])


def shared_word_query(name_key: str) -> str:
    """An OR query for the names sharing one of this name key's words of three letters or
    more (a key is lower-cased already; its words are kept as they are)."""
    return " OR ".join(sorted({w for w in _WORD.findall(name_key)
                               if len(w) >= SHARED_WORD_LETTERS}))
