"""Where pages and sections start in a document's text, and where a span of it lies."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from graphrag_neo4j.indexing.records import Place

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
# Markdown decoration a heading path does not show: emphasis, code ticks, link targets.
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_DECORATION = re.compile(r"[*_`]+")
SECTION_SEPARATOR = " > "


def heading_text(raw: str) -> str:
    """A Markdown heading's words without emphasis marks or link targets."""
    return " ".join(_DECORATION.sub("", _LINK.sub(r"\1", raw)).split())


def heading_places(text: str, pages: Sequence[tuple[int, int]] = ()) -> tuple[Place, ...]:
    """A place at every Markdown heading (outside code fences) with its heading path, and at
    every page start in `pages` ((offset, page number), in order)."""
    marks: list[tuple[int, int | None, list[str] | None]] = [(s, n, None) for s, n in pages]
    path: list[tuple[int, str]] = []
    fenced, offset = False, 0
    for line in text.splitlines(keepends=True):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := _HEADING.match(line.rstrip("\n"))):
            level, title = len(match.group(1)), heading_text(match.group(2))
            path = [(lvl, name) for lvl, name in path if lvl < level]
            if title:
                path.append((level, title))
            marks.append((offset, None, [name for _, name in path]))
        offset += len(line)
    return _merged(sorted(marks, key=lambda mark: mark[0]))


def _merged(marks: list[tuple[int, int | None, list[str] | None]]) -> tuple[Place, ...]:
    """One place per mark, each carrying the page and section in force there."""
    places: list[Place] = []
    page: int | None = None
    section = ""
    for start, number, names in marks:
        page = number if number is not None else page
        section = SECTION_SEPARATOR.join(names) if names is not None else section
        place = Place(start, page, section)
        if places and places[-1].start == start:
            places[-1] = place
        else:
            places.append(place)
    return tuple(places)


def locate(places: Sequence[Place], start: int, end: int) -> tuple[tuple[int, int] | None, str]:
    """The pages (first, last) a span [start, end) touches and the section it starts in."""
    if not places:
        return None, ""
    starts = [place.start for place in places]
    first = bisect.bisect_right(starts, start) - 1
    last = bisect.bisect_left(starts, max(start + 1, end)) - 1
    at_start = places[first] if first >= 0 else Place(0)
    pages = [p.page for p in places[max(first, 0) : last + 1] if p.page is not None]
    if at_start.page is not None:
        pages.insert(0, at_start.page)
    return ((min(pages), max(pages)) if pages else None), at_start.section


def section_span(places: Sequence[Place], section: str, text_length: int) -> list[tuple[int, int]]:
    """The spans of the text whose heading path is `section` (a heading may repeat)."""
    spans = []
    for index, place in enumerate(places):
        if place.section == section:
            end = places[index + 1].start if index + 1 < len(places) else text_length
            spans.append((place.start, end))
    return spans
