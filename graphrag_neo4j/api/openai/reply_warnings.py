"""The answer's warnings (unsupported names, a misfit) as lines after an OpenAI-compatible
reply's text: chat clients show the text alone, so a warning kept in the notes goes unseen."""

from __future__ import annotations

import re

from graphrag_neo4j.query.base import Answer

MARK = "> Check: "
# The warning lines closing an earlier reply, sent back as history by the client.
_LINE = rf"{re.escape(MARK)}[^\n]*"
_CLOSING_WARNINGS = re.compile(rf"\n\n{_LINE}(?:\n{_LINE})*\s*$")


def warning_block(answer: Answer) -> str:
    """A Markdown quote of the answer's warnings after a blank line, or nothing."""
    lines = [f"{MARK}{note}" for note in answer.warnings()]
    return "\n\n" + "\n".join(lines) if lines else ""


def without_warnings(text: str) -> str:
    """An earlier reply without the warning lines it closed with: not part of what was said."""
    return _CLOSING_WARNINGS.sub("", text)
