"""Hops' follow-up: one LLM call reads the best passages and writes what the question still
needs; the passages found for it join the ranking behind the first ones (as IRCoT's
interleaved retrieval does, one step)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.query.context import Row
from graphrag_neo4j.query.hops.mentions import capitalised_mentions
from graphrag_neo4j.runtime.resources import load_prompt

FOLLOW_UP_STAGE = "hops_follow_up"
# A query of a dozen words; more is a model that has begun to answer or to loop.
FOLLOW_UP_MAX_TOKENS = 40
# Enough of a passage to show what it is about, short enough for a small model's window.
PASSAGE_CHARS = 700
_LABEL = re.compile(r"^\s*(?:search\s+)?query\s*:\s*", flags=re.IGNORECASE)
_QUOTES = "\"'`“”‘’"


def numbered_passages(passages: Sequence[Row]) -> str:
    """`[1] title: text` lines (the text cut at PASSAGE_CHARS), numbered from 1."""
    lines = []
    for n, row in enumerate(passages, start=1):
        title = str(row.get("title") or "").strip()
        text = " ".join(str(row.get("text") or "").split())[:PASSAGE_CHARS]
        lines.append(f"[{n}] {title}: {text}" if title else f"[{n}] {text}")
    return "\n".join(lines)


def parse_follow_up(reply: str) -> str:
    """The query in a reply: its first non-empty line, without a `Query:` label or quotes
    around it; "" when the reply holds none."""
    for line in reply.splitlines():
        # A model may repeat the label inside the line ("... Query: ..."): keep the first part.
        text = _LABEL.sub("", line).split(" Query:")[0].strip().strip(_QUOTES).strip()
        if text:
            return text
    return ""


async def follow_up_query(
    llm: LLMCaller, question: str, passages: Sequence[Row], prompts_dir: Path | None
) -> str:
    """What the question still needs, as a short query written from `passages` ("" if none)."""
    prompt = load_prompt("query/hops/follow_up", prompts_dir).format(
        passages=numbered_passages(passages), question=question
    )
    reply = await llm.complete(prompt, stage=FOLLOW_UP_STAGE, max_tokens=FOLLOW_UP_MAX_TOKENS)
    return parse_follow_up(reply)


def follow_up_mentions(first: Sequence[str], query: str) -> list[str]:
    """The names the second retrieval looks up: the first retrieval's (given by the user, or
    found by NER without a second call), then the query's capitalised phrases not among them."""
    seen = {name.casefold() for name in first}
    added = [name for name in capitalised_mentions(query) if name.casefold() not in seen]
    return [*first, *dict.fromkeys(added)]

