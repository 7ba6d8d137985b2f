"""Warnings after an OpenAI-compatible reply: only the answer's own, and never fed back."""

from __future__ import annotations

from graphrag_neo4j.api.openai.reply_warnings import warning_block, without_warnings
from graphrag_neo4j.query.base import Answer, Note, NoteKind

UNSUPPORTED = "Unsupported by the context (check them): Oliver Twist."
MISFIT = "Answer check: the answer gives no date or time, which the question asks for; ..."


def test_the_answers_warnings_follow_it_and_other_notes_do_not() -> None:
    answer = Answer(text="Bob Cratchit.", method="local", notes=[
        Note.info("Wrote 1 community report for this question; 0 reused."),
        Note(NoteKind.NAMES_UNSUPPORTED, UNSUPPORTED), Note(NoteKind.ANSWER_CHECK, MISFIT)])
    assert warning_block(answer) == f"\n\n> Check: {UNSUPPORTED}\n> Check: {MISFIT}"
    quiet = Answer(text="Bob.", method="local", notes=[Note.info("Wrote 1 report.")])
    assert warning_block(quiet) == ""


def test_an_earlier_reply_loses_its_closing_warnings_only() -> None:
    reply = "Bob Cratchit.\n\n> Check: " + UNSUPPORTED + "\n> Check: " + MISFIT + "\n"
    assert without_warnings(reply) == "Bob Cratchit."
    quoted = "He said:\n\n> Check: the fire.\n\nThen he left."  # a quote inside the answer
    assert without_warnings(quoted) == quoted
