"""Answer notes carry a kind: warnings are picked by kind, never by their first words, and the
JSON keeps the notes' texts where they were with their kinds beside them."""

from __future__ import annotations

import json

from graphrag_neo4j.api.answers import answer_json
from graphrag_neo4j.api.openai.reply_warnings import warning_block
from graphrag_neo4j.query.answers.grounding import NAMES_UNSUPPORTED
from graphrag_neo4j.query.base import Answer, Note, NoteKind


def _answer() -> Answer:
    return Answer(text="Bob.", method="local", notes=[
        # An info note worded like a warning is no warning.
        Note.info(f"{NAMES_UNSUPPORTED}: quoted from a document."),
        # A warning reworded is still one.
        Note(NoteKind.NAMES_UNSUPPORTED, "Names the context lacks: Tiny Tim."),
        Note(NoteKind.EVIDENCE, "Evidence: Bob works for Scrooge. (Sources 1)"),
    ])


def test_a_note_warns_by_its_kind_not_its_words() -> None:
    answer = _answer()
    assert answer.warnings() == ["Names the context lacks: Tiny Tim."]
    assert warning_block(answer) == "\n\n> Check: Names the context lacks: Tiny Tim."


def test_the_json_keeps_the_texts_and_adds_the_kinds() -> None:
    answer = _answer()
    texts = [note.text for note in answer.notes]
    shown = answer_json(answer, with_context=False)
    assert shown["notes"] == texts
    assert shown["note_kinds"] == ["info", "names_unsupported", "evidence"]
    data = json.loads(json.dumps(answer.as_json(), default=str))  # `query --json`
    assert data["notes"] == texts and data["note_kinds"] == shown["note_kinds"]
