"""Whether a question names a document's title, the passage a question is about, and the
titles an entity's name may be a page's."""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphrag_neo4j.query.context import Row

_WORD = re.compile(r"\w+")
# "git-rerere(1)", "Paris (band)": the part in brackets qualifies the name, it is not said.
_QUALIFIER = re.compile(r"\([^)]*\)")
# A title shorter than this ("It", "Up") is a common word more often than a name.
MIN_TITLE_CHARACTERS = 4


def title_words(text: str) -> list[str]:
    """The words of `text`, case-folded; punctuation and hyphens separate them."""
    return [word.casefold() for word in _WORD.findall(text)]


def names_title(question: str, title: str) -> bool:
    """True when the question says the title's words in order (its bracketed qualifier left
    out): "enable git rerere" names "git-rerere(1)", "comparison" does not name "Paris"."""
    wanted = title_words(_QUALIFIER.sub(" ", title))
    if len("".join(wanted)) < MIN_TITLE_CHARACTERS:
        return False
    said = title_words(question)
    size = len(wanted)
    return any(said[start:start + size] == wanted for start in range(len(said) - size + 1))


def named_head(question: str, ranked: Sequence[Row]) -> Row | None:
    """Of the passages tied at the top of `ranked` (scored, best first), the one whose document
    title the question names, when exactly one is; else the first passage (None if empty)."""
    if not ranked:
        return None
    top = float(ranked[0]["score"])
    tied = [row for row in ranked if float(row["score"]) == top]
    named = [row for row in tied if names_title(question, str(row.get("title") or ""))]
    return named[0] if len(named) == 1 else ranked[0]


def page_titles(names: Sequence[str]) -> list[str]:
    """The titles of the pages these entity names may lead to: each name, and each run of its
    capitalised words (a name inside a longer name: "Hiran region of Somalia" holds "Hiran" and
    "Somalia", "2000 Hong Kong action film" "Hong Kong"), of `MIN_TITLE_CHARACTERS` or more."""
    titles = set(names)
    for name in names:
        words = name.split()
        for start in range(len(words)):
            for end in range(start + 1, len(words) + 1):
                if not words[end - 1][:1].isupper():
                    break  # the run ends at the first word in lower case
                titles.add(" ".join(words[start:end]))
    return sorted(title for title in titles if len(title) >= MIN_TITLE_CHARACTERS)
