"""Which extracted names cannot name an entity: URLs, code or markup, headings, sentences.

Every method's names pass here before anything is written; a refused one is dropped and
counted, and its words stay in the chunk's text for retrieval. A relation from an entity to
it becomes a fact on that entity (`facts`); other relations naming it are dropped.
"""

from __future__ import annotations

import re

_URL = re.compile(r"https?://|\bwww\.|\b[\w-]+\.(?:com|org|net|edu|gov|io|info)\b", re.I)
# Brackets, braces, angle brackets, assignments, pipes, backslashes, backticks, `::`, calls
# (`f(` or `x.f(`) and shell variables.
_CODE = re.compile(r"[\[\]{}<>=;|\\`]|::|\w\(|\$[A-Za-z_{]")
# A snake_case or CONSTANT_CASE identifier among other words is a line of code; alone, it is
# the name of a setting, command or function (`wal_level`, `pg_dump`): a manual is about them.
_IDENTIFIER_IN_WORDS = re.compile(r"\b[A-Za-z0-9]+_[A-Za-z0-9_]+")
# Words a title keeps in lower case ("Organisation for Economic Co-operation and Development"),
# and the particles of personal and place names ("Ana García de los Ríos y Caller", "Khalid
# bin Abdullah Al Saud", "Mato Grosso do Sul", "Jan ter Horst").
_TITLE_JOINERS = frozenset({
    "a", "af", "al", "an", "and", "at", "av", "bin", "bint", "by", "da", "das", "de", "degli",
    "dei", "del", "della", "delle", "den", "der", "des", "di", "do", "dos", "du", "e", "el",
    "for", "from", "ibn", "in", "la", "las", "le", "lo", "los", "of", "on", "or", "ten", "ter",
    "the", "to", "van", "von", "with", "y", "zu", "zur",
})
# An aside in brackets qualifies a name ("John Taylor (bishop of Sodor and Man)", "Elizabeth
# Percy (born 1922)"): its words count neither for the length nor for the capitals.
_ASIDE = re.compile(r"\s*\([^()]*\)")
# What a model writes for a missing end of a triplet, and leading words of a time or place
# phrase ("in 1963"): neither names anything.
_PLACEHOLDERS = frozenset({"none", "null", "nil", "n/a", "na", "unknown", "unnamed", "-", "?"})
PLACEHOLDER = "a placeholder"  # the reason of a name that stands for nothing
_PHRASE_STARTS = frozenset({"in", "on", "at", "during", "since", "until", "before", "after"})
CHARS_PER_WORD = 10  # a name written without spaces is bounded by its length instead
# A name may end on an abbreviation's full stop ("Walfredo de los Reyes Sr."): a sentence does
# not (a dotted acronym, "Live and Die in L.A.", is one too).
_ABBREVIATIONS = frozenset({
    "bros", "co", "corp", "dr", "esq", "inc", "jr", "ltd", "mr", "mrs", "ms", "mt", "plc", "pty",
    "sr", "st",
})


def junk_reason(name: str, max_words: int) -> str | None:
    """Why `name` is no entity name (None when it may be one).

    A long title ("The Good, the Bad and the Ugly") stays a name; a long phrase with
    lower-case words ("commission composed of 12 bishops and cardinals") does not.
    """
    words = (_ASIDE.sub("", name) or name).split()
    if name.strip().lower() in _PLACEHOLDERS:
        return PLACEHOLDER
    if not any(ch.isalpha() for ch in name):
        return "no letters (a number or symbols)"
    if len(words) > 1 and words[0] in _PHRASE_STARTS:
        return "a phrase of time or place"
    if _URL.search(name):
        return "a URL"
    if _CODE.search(name) or (len(words) > 1 and _IDENTIFIER_IN_WORDS.search(name)):
        return "code or markup"
    if len(words) > max_words and name.upper() == name:
        return "a heading or notice in capitals"
    if len(words) > max_words and not _titled(words):
        return f"a phrase of more than {max_words} words"
    if len(words) == 1 and len(name) > max_words * CHARS_PER_WORD:
        return f"longer than {max_words * CHARS_PER_WORD} characters without a space"
    if len(words) >= 5 and name.endswith(".") and not _abbreviation(words[-1]):
        return "a sentence"
    return None


def _titled(words: list[str]) -> bool:
    """Every word capitalised (or a number), but for the small words titles keep lower-case;
    a dash between words, a minus sign before a number, or a sign ("&", "+") is no word."""
    for word in words:
        bare = word.strip("\"'“”‘’()[],:;!?.-–—")
        if any(ch.isalnum() for ch in bare) and not (bare[0].isupper() or bare[0].isdigit()
                         or bare.lower() in _TITLE_JOINERS):
            return False
    return True


def _abbreviation(word: str) -> bool:
    """A word ending on a full stop that does not end a sentence: "Jr.", "L.A."."""
    bare = word.rstrip(".")
    return "." in bare or bare.lower() in _ABBREVIATIONS
