"""Inline code in a sentence -> the identifier it names and a type read off its shape.

A manual's inline code (`pg_dump`, `VACUUM FULL`, `gc.auto`, `--aggressive`, `.git/config`)
names what the text is about; spaCy's news models see none of it as a name. Each code span
that holds a name gives one mention, typed by what the span itself shows: a leading dash is an
option, a path a file, a call a function, `name = value` a setting, a dotted name a setting,
words in capitals a keyword, a lower-case word followed by its arguments a command. No word
list: the same shapes hold in any manual. Each mention votes; the run takes the majority.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# `...` on one line: the code span, backticks kept by the prose mask of fast extraction.
CODE_SPAN = re.compile(r"`([^`\n]+)`")
# A word of a name in code: letters, digits and the punctuation identifiers and paths use.
_WORD = r"[\w.\-/:@~+%^]+"
_NAME = re.compile(rf"{_WORD}(?: {_WORD}){{0,3}}")
_CALL = re.compile(r"([A-Za-z_][\w.:]*)\s*\(")
_ASSIGNMENT = re.compile(r"([A-Za-z_][\w.\-]*)\s*=")
_PLAIN_WORD = re.compile(r"[a-z][a-z0-9_\-]*")
_DOTTED = re.compile(r"[A-Za-z_][\w\-]*(?:\.[A-Za-z_][\w\-]*)+")
_CAPITALS = re.compile(r"[A-Z][A-Z0-9_]*(?: [A-Z][A-Z0-9_]*)*")
# A shell prompt before a command line: `$ git push`.
_PROMPT = re.compile(r"[$#>] +")
# A name made only of punctuation and digits names nothing ("--", "0.5").
_LETTER = re.compile(r"[A-Za-z]")
MAX_CODE_NAME_CHARS = 60
# The types a code span's shape gives (the identifier type: none of the other shapes).
OPTION, FILE, FUNCTION, SETTING, KEYWORD, COMMAND, IDENTIFIER = (
    "option", "file", "function", "setting", "keyword", "command", "identifier")


@dataclass(frozen=True)
class CodeName:
    """The name in one code span: its characters in the text, and the type its shape gives."""

    start: int
    end: int
    name: str
    type: str


def code_names(text: str) -> Iterator[tuple[tuple[int, int], CodeName | None]]:
    """Each code span of `text` (backticks included) and the name it holds, if any."""
    for match in CODE_SPAN.finditer(text):
        yield match.span(), code_name(match.group(1), match.start(1))


def code_name(code: str, offset: int = 0) -> CodeName | None:
    """The name `code` holds (its position shifted by `offset`), or None for none."""
    stripped = code.strip()
    prompt = _PROMPT.match(stripped)
    stripped = stripped[prompt.end():] if prompt else stripped
    start = offset + code.index(stripped) if stripped else offset
    found = _shaped(stripped)
    if found is None:
        return None
    name, kind = found
    if not _LETTER.search(name) or len(name) > MAX_CODE_NAME_CHARS:
        return None
    return CodeName(start, start + len(name), name, kind)


def _shaped(code: str) -> tuple[str, str] | None:
    """(name, type) of the code's leading name: the whole of it, or the part its shape names."""
    call = _CALL.match(code)
    if call:
        return call.group(1), FUNCTION
    assignment = _ASSIGNMENT.match(code)
    if assignment and " " not in assignment.group(1):
        return assignment.group(1), SETTING
    if not _NAME.fullmatch(code):
        return _command(code)
    words = code.split(" ")
    if len(words) == 1:
        return code, _word_type(code)
    if _CAPITALS.fullmatch(code):
        return code, KEYWORD
    return _command(code)


def _command(code: str) -> tuple[str, str] | None:
    """A command line: its leading plain words (the program and its subcommands), the
    arguments after them left out. One plain word followed by nothing is no command."""
    words: list[str] = []
    for word in code.split():
        if not _PLAIN_WORD.fullmatch(word) or len(words) == 3:
            break
        words.append(word)
    if len(words) < 2 and len(words) == len(code.split()):
        return None
    return (" ".join(words), COMMAND) if words else None


def _word_type(word: str) -> str:
    if word.startswith("-"):
        return OPTION
    if "/" in word or word.startswith((".", "~")):
        return FILE
    if _DOTTED.fullmatch(word):
        return SETTING
    if _CAPITALS.fullmatch(word):
        return KEYWORD
    return IDENTIFIER
