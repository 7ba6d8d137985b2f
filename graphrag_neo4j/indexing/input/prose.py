"""What of a text is prose: fenced and inline code, URLs, tables, front matter and HTML tags
are not; an argument placeholder (`<commit>`, `<path>`) is.

Readers that take names off sentences (fast extraction, language detection) see only prose;
the chunks keep every character for retrieval. Fast extraction keeps inline code (`pg_dump`):
in a manual it names what the text is about, and blanking it left holes in the sentences.
Masked characters become spaces, line breaks stay, so a masked text has the length and the
lines of the original.

Technical text writes an argument as `<name>` in prose (man pages, --help output, RFCs, and
HTML manuals once converted: `git add <pathspec>`). Masked as a tag it left holes in every
sentence that names one ("Specify a ( , ) pair"), so a bare `<name>` is markup only when the
text closes it (`<b>...</b>`) or it is an element that means something bare (`<br>`); a closing
tag, attributes (`<a href="...">`), a self-closing slash and an autolink (`<me@host.org>`) are
masked always.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_FENCE = re.compile(r"[ \t]*(```|~~~)")
_FRONT_MATTER = "---"
_TABLE_ROW = re.compile(r"[ \t]*\|")
_INDENTED_CODE = re.compile(r"(?: {4}|\t)\S")
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_URL = re.compile(r"\b(?:https?://|www\.)\S+", re.I)
# A Markdown link or image keeps its words, not its target: [words](target).
_LINK_TARGET = re.compile(r"(?<=\])\([^)\s]*\)")
# A name may hold Markdown's escaped underscores (`<host\_name>`, as MarkItDown writes it).
_HTML_TAG = re.compile(r"<(?P<closing>/?)(?P<name>[A-Za-z](?:[\w.-]|\\_)*)(?P<rest>[^<>\n]*)>")
_CLOSING_TAG = re.compile(r"</([A-Za-z][\w.-]*)\s*>")
# HTML's void elements that mean something without attributes; the others (img, input, ...)
# need one, so bare they are placeholders (`cp <source> <dest>`).
_BARE_ELEMENTS = frozenset({"br", "hr", "wbr"})
# What may follow a placeholder's first word: more words (`<file name>`), alternatives or
# parts (`<yes|no>`, `<host:port>`); not attributes, a slash, an address or a URL (`<a
# href="x">`, `<br/>`, `<me@host.org>`, `<https://x>`).
_PLACEHOLDER_REST = re.compile(r"(?:(?:\s+|\s*[|:,]\s*)[\w.-]+)*\s*")
_INLINE_CODE_KEPT = re.compile(f"({_INLINE_CODE.pattern})")


class ProseMask:
    """Masks the non-prose of one document read in pieces, in order (a fence may span pieces).

    A fenced block left open at the end of a piece stays open into the next one.
    """

    def __init__(self, keep_inline_code: bool = False) -> None:
        self._keep_inline_code = keep_inline_code  # backticks and all, to mark it
        self._fence: str | None = None  # the marker of the fenced block we are inside
        self._front_matter = False
        self._first_line = True
        # Whether the last line was paragraph text: an indented line then continues the
        # paragraph (CommonMark: an indented code block cannot interrupt a paragraph), as the
        # wrapped lines of an indented list in a plain-text book do.
        self._in_paragraph = False
        self._closed: frozenset[str] = frozenset()  # tag names the current piece closes

    def prose(self, text: str) -> str:
        """`text` with its non-prose replaced by spaces (same length, same line breaks)."""
        self._closed = closed_tag_names(text)
        return "".join(self._line(line) for line in text.splitlines(keepends=True))

    def _line(self, line: str) -> str:
        first, self._first_line = self._first_line, False
        bare = line.strip()
        if first and bare == _FRONT_MATTER:
            self._front_matter = True
            return _blank(line)
        if self._front_matter:
            self._front_matter = bare not in (_FRONT_MATTER, "...")
            return _blank(line)
        fence = _FENCE.match(line)
        was_paragraph, self._in_paragraph = self._in_paragraph, False
        if self._fence is not None:
            if fence is not None and fence.group(1) == self._fence:
                self._fence = None
            return _blank(line)
        if fence is not None:
            self._fence = fence.group(1)
            return _blank(line)
        if _TABLE_ROW.match(line) or (_INDENTED_CODE.match(line) and not was_paragraph):
            return _blank(line)
        self._in_paragraph = bool(bare) and not bare.startswith("#")  # a heading is one line
        return _masked_spans(line, self._closed, self._keep_inline_code)


def prose_of(text: str) -> str:
    """The prose of one whole text (see `ProseMask`)."""
    return ProseMask().prose(text)


def prose_of_pieces(pieces: Iterable[str]) -> list[str]:
    """The prose of consecutive pieces of one document, a fence carried across pieces."""
    mask = ProseMask()
    return [mask.prose(piece) for piece in pieces]


def closed_tag_names(text: str) -> frozenset[str]:
    """The names of the tags `text` closes somewhere (`</b>`: "b"), lower-cased."""
    return frozenset(name.lower() for name in _CLOSING_TAG.findall(text))


def is_markup(tag: re.Match[str], closed: frozenset[str]) -> bool:
    """Whether a `_HTML_TAG` match is markup (or an autolink) rather than a placeholder."""
    name = tag.group("name").lower()
    placeholder = (not tag.group("closing") and _PLACEHOLDER_REST.fullmatch(tag.group("rest"))
                   and name not in closed and name not in _BARE_ELEMENTS)
    return not placeholder


def _masked_spans(line: str, closed: frozenset[str], keep_inline_code: bool = False) -> str:
    if keep_inline_code:
        # Inline code kept is kept whole: `<key>` in it is a placeholder, not a tag.
        pieces = _INLINE_CODE_KEPT.split(line)
        return "".join(piece if n % 2 else _masked_spans(piece, closed)
                       for n, piece in enumerate(pieces))
    for pattern in (_INLINE_CODE, _LINK_TARGET):
        line = pattern.sub(lambda match: _blank(match.group()), line)
    # Tags before URLs: a URL in an attribute would otherwise take the tag's end with it.
    line = _HTML_TAG.sub(
        lambda tag: _blank(tag.group()) if is_markup(tag, closed) else tag.group(), line)
    return _URL.sub(lambda match: _blank(match.group()), line)


def _blank(text: str) -> str:
    """Spaces for every character but line breaks."""
    return re.sub(r"[^\r\n]", " ", text)
