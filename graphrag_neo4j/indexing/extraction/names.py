"""Which extracted names cannot name an entity: URLs, code or markup, headings, sentences.

Names a method reads off the text pass here before anything is written; a refused one (and
the relations naming it) is dropped and counted, and its words stay in the chunk's text for
retrieval. Names the input states itself (the triplets method) are kept as given.
"""

from __future__ import annotations

import re

_URL = re.compile(r"https?://|\bwww\.|\b[\w-]+\.(?:com|org|net|edu|gov|io|info)\b", re.I)
# Brackets, braces, angle brackets, assignments, pipes, backslashes, backticks, `::`, calls
# (`f(` or `x.f(`), shell variables and snake_case or CONSTANT_CASE identifiers.
_CODE = re.compile(r"[\[\]{}<>=;|\\`]|::|\w\(|\$[A-Za-z_{]|\b[A-Za-z0-9]+_[A-Za-z0-9_]+")
_SENTENCE_END = re.compile(r"[.!?]$")
CHARS_PER_WORD = 10  # names of scripts written without spaces are bounded by length instead


def junk_reason(name: str, max_words: int) -> str | None:
    """Why `name` is no entity name (None when it may be one)."""
    words = name.split()
    if _URL.search(name):
        return "a URL"
    if _CODE.search(name):
        return "code or markup"
    if len(words) > max_words:
        return f"longer than {max_words} words"
    if len(name) > max_words * CHARS_PER_WORD:
        return f"longer than {max_words * CHARS_PER_WORD} characters"
    if len(words) >= 4 and _SENTENCE_END.search(name):
        return "a sentence"
    if len(words) >= 4 and name.upper() == name and any(ch.isalpha() for ch in name):
        return "a heading or notice in capitals"
    return None
