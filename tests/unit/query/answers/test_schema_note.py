"""The note on an older graph's indexes names what init-db changes and the workspace to name."""

from __future__ import annotations

from graphrag_neo4j.query.answers.schema_note import schema_lag_note
from graphrag_neo4j.query.base import NoteKind


def test_the_note_names_the_indexes_and_the_command() -> None:
    note = schema_lag_note(["chunk_title"], "")
    assert note.kind is NoteKind.INFO and not note.warns
    assert "(chunk_title to create or drop)" in note.text
    assert "`graphrag-neo4j init-db`" in note.text


def test_a_named_workspace_is_in_the_command_and_long_lists_are_cut() -> None:
    note = schema_lag_note(["a", "b", "c", "d", "e"], "acme")
    assert "(a, b, c and 2 more to create or drop)" in note.text
    assert "`graphrag-neo4j init-db --workspace acme`" in note.text
