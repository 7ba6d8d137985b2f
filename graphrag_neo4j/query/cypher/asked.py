"""What an English question asks for, read from its first words: names ("which", "who")."""

from __future__ import annotations

import re

# "Which person...", "Who links...", "In which documents...", "To whom...": the answer is named.
_ASKS_FOR_NAMES = re.compile(
    r"^\W*(?:(?:in|of|for|to|from|with|by|at|on)\s+)?(?:which|who|whom|whose)\b",
    flags=re.IGNORECASE,
)


def asks_for_names(question: str) -> bool:
    """The question asks which thing or who: rows of numbers alone cannot answer it."""
    return bool(_ASKS_FOR_NAMES.search(question))
