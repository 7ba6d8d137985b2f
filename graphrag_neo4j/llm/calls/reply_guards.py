"""Stop rules for streamed LLM replies: cut generation short once a reply starts looping."""

from __future__ import annotations

from collections.abc import Callable

# Called with the reply so far after each streamed line break; True stops the generation.
StopRule = Callable[[str], bool]

LOOP_WINDOW = 3


def repeating_lines(text: str) -> bool:
    """True once the last few complete lines all repeat earlier lines of the same reply.

    Small local models decoding greedily can write one record over and over until the token
    limit; every line after the loop starts is wasted generation time.
    """
    lines = [line.strip() for line in text.split("\n")[:-1]]
    lines = [line for line in lines if line]
    if len(lines) <= LOOP_WINDOW:
        return False
    earlier = set(lines[:-LOOP_WINDOW])
    return all(line in earlier for line in lines[-LOOP_WINDOW:])


# A streamed reply loops once its last LOOP_TAIL characters occur LOOP_REPEATS times in it.
LOOP_TAIL = 80
LOOP_REPEATS = 3


def repeating_text(text: str) -> bool:
    """True once the reply's end has been written LOOP_REPEATS times: a model repeating a
    sentence or a paragraph, with or without line breaks, until its token limit."""
    if len(text) < LOOP_TAIL * LOOP_REPEATS:
        return False
    return text.count(text[-LOOP_TAIL:]) >= LOOP_REPEATS


def without_repeats(text: str) -> str:
    """A looping reply cut after the first time it wrote what it then repeats (others as they
    are)."""
    if not repeating_text(text):
        return text
    tail = text[-LOOP_TAIL:]
    return text[: text.find(tail) + LOOP_TAIL].rstrip()


def cut_at_last_line(text: str) -> str:
    """The reply up to its last complete line, so a stopped reply holds no half record."""
    end = text.rfind("\n")
    return text[: end + 1] if end >= 0 else text
