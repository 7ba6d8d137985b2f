"""What the methods share: passage tables and the one answer call."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from graphrag_neo4j.query.answers.grounded_stream import grounded_sink
from graphrag_neo4j.query.answers.stream import ANSWER_LABEL, AnswerOnlySink
from graphrag_neo4j.query.base import Answer, Note, NoteKind, Query, Services
from graphrag_neo4j.query.context import (
    Row,
    SearchContext,
    TableBuilder,
    documents_in_order,
    history_block,
)
from graphrag_neo4j.runtime.resources import load_prompt

NO_DATA = "(no data found)"
# "Evidence: ...\nAnswer: ..." as an evidence-first prompt asks for it (the prompt itself ends
# with "Evidence:", so the reply may start with the evidence). "Facts used:" is the older label.
_EVIDENCE_LABEL = re.compile(r"^\s*\**(?:evidence|facts used)\**\s*:\**\s*", re.IGNORECASE)
EVIDENCE_NOTE = "Evidence: "
EVIDENCE_LABELS = ("evidence:", "facts used:")


def evidence_and_answer(reply: str) -> tuple[str, str]:
    """(the evidence the model quoted, its answer) from an evidence-first reply; a reply
    without an "Answer:" line is all answer."""
    labels = list(ANSWER_LABEL.finditer(reply))
    if not labels:
        return "", reply.strip()
    evidence = _EVIDENCE_LABEL.sub("", reply[: labels[-1].start()]).strip()
    return " ".join(evidence.split()), reply[labels[-1].end():].strip()


def passages_table(passages: Sequence[Row], budget_tokens: int) -> TableBuilder:
    """The `-----Sources-----` table: one numbered passage a row, as many as the budget holds."""
    table = TableBuilder("Sources", ["title", "text"], budget_tokens)
    table.fill(passages, lambda row: (row.get("title", ""), row["text"]))
    return table


def passage_context(
    passages: Sequence[Row], budget_tokens: int, extra: Mapping[str, list[Row]] | None = None
) -> SearchContext:
    """A context of ranked passages (all of them count for recall, the prompt gets what fits)."""
    table = passages_table(passages, budget_tokens)
    return SearchContext(
        text=table.render(),
        sources={**(extra or {}), "Sources": table.rows},
        ranked_document_ids=documents_in_order(passages),
    )


async def answer_from_context(
    services: Services, method: str, query: Query, context: SearchContext
) -> Answer:
    """One answer call with prompts/query/answers/<method>.txt over the context, streamed if asked;
    the evidence an evidence-first reply quotes goes to the answer's notes."""
    prompt = load_prompt(f"query/answers/{method}", services.settings.prompts_dir).format(
        response_type=query.response_type,
        history=history_block(query.history),
        context=context.text or NO_DATA,
        question=query.question,
    )
    # A prompt ending on the evidence label gets its evidence first: only the answer streams.
    evidence_first = prompt.rstrip().lower().endswith(EVIDENCE_LABELS)
    grounded = grounded_sink(query, context.sources)
    sink = AnswerOnlySink(grounded) if grounded and evidence_first else None
    reply = await services.llm.complete(
        prompt, stage=f"{method}_answer", on_token=sink or grounded
    )
    if sink is not None:
        sink.finish()
    if grounded is not None:
        grounded.finish()
    evidence, text = evidence_and_answer(reply) if evidence_first else ("", reply)
    answer = Answer.from_context(method, text, context)
    if evidence:
        answer.notes.append(Note(NoteKind.EVIDENCE, EVIDENCE_NOTE + evidence))
    return answer
