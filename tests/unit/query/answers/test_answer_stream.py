"""An evidence-first reply streams its answer only; other replies stream whole."""

from __future__ import annotations

import pytest

from graphrag_neo4j.query.answers.stream import AnswerOnlySink


def _streamed(pieces: list[str]) -> str:
    seen: list[str] = []
    sink = AnswerOnlySink(seen.append)
    for piece in pieces:
        sink(piece)
    sink.finish()
    return "".join(seen)


@pytest.mark.parametrize(("pieces", "shown"), [
    ([" 'Not fair,' said", " Scrooge (Sources 1)\n", "Answer", ":", " Harshly", " [Data]"],
     "Harshly [Data]"),
    (["none\n**Answer:** I do", " not know."], "I do not know."),
    (["Norway", " [Data: Sources (1)]"], "Norway [Data: Sources (1)]"),
    (["quoted\nAnswer:"], ""),
])
def test_only_the_answer_after_its_label_reaches_the_reader(
    pieces: list[str], shown: str
) -> None:
    assert _streamed(pieces) == shown


def test_a_long_reply_without_a_label_flows_through_before_it_ends() -> None:
    seen: list[str] = []
    sink = AnswerOnlySink(seen.append)
    sink("x" * 5000)
    sink("y")
    assert "".join(seen) == "x" * 5000 + "y"
