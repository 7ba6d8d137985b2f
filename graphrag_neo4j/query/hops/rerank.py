"""LLM reranking of candidate relations: one-shot chain-of-thought prompt and a tolerant parser."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.runtime.resources import load_prompt

RERANK_STAGE = "hops_rerank"
# The list follows a short thought: 200 tokens hold both, and cut short a model that loops.
RERANK_MAX_TOKENS = 200
_JSON_OBJECT = re.compile(r"\{.*\}", flags=re.DOTALL)
_NUMBER = re.compile(r"\[?\s*(\d+)\s*\]?")
_LIST_START = re.compile(r'"useful_relationships"\s*:\s*\[')
_LIST_END = re.compile(r"\]\s*(?:,|\}|$)")
_ITEM_NUMBER = re.compile(r'(?:^|,)\s*"?\s*\[?\s*(\d+)')
_CITATION = re.compile(r"\[(\d+)\]")


@dataclass(frozen=True)
class Candidate:
    """One relation of the expanded subgraph, with how near its sentence is to the question."""

    id: str
    subject: str
    predicate: str
    object: str
    chunk_ids: tuple[str, ...]
    score: float

    @property
    def sentence(self) -> str:
        """The relation as the sentence its embedding encodes."""
        return f"{self.subject} {self.predicate} {self.object}"


@dataclass(frozen=True)
class Rerank:
    """What the reranker chose (positions into the candidates shown) and why."""

    order: list[int]
    thought: str
    parsed: bool


def numbered_relations(candidates: Sequence[Candidate]) -> str:
    """`[1] subject predicate object` lines, numbered from 1 as the prompt's example is."""
    return "\n".join(f"[{n}] {c.sentence}" for n, c in enumerate(candidates, start=1))


def _number(item: object) -> int | None:
    if isinstance(item, int):
        return item
    match = _NUMBER.match(str(item).strip())
    return int(match.group(1)) if match else None


def _items(reply: str) -> tuple[list[object], str, bool]:
    """The useful_relationships items and thought of a reply, even from cut-off JSON."""
    match = _JSON_OBJECT.search(reply)
    if match is not None:
        try:
            data = json.loads(match.group(0))
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("useful_relationships"), list):
            return data["useful_relationships"], str(data.get("thought_process", "")), True
    # A small model may stop mid-JSON or add comments: take the numbers of the list it began.
    start = _LIST_START.search(reply)
    if start is None:
        # Cut off inside the thought: the facts it cites, in the order it cites them.
        return [int(n) for n in _CITATION.findall(reply)], "", False
    rest = reply[start.end() :]
    end = _LIST_END.search(rest)
    listed = rest[: end.start()] if end else rest
    items: list[object] = [int(n) for n in _ITEM_NUMBER.findall(listed)]
    return items, "", bool(items)


def parse_rerank(reply: str, shown: int) -> Rerank:
    """Chosen 0-based positions in order, unknown or repeated numbers dropped.

    `parsed` says whether the reply held the list; without it, the facts its thought cites.
    """
    items, thought, parsed = _items(reply)
    order: list[int] = []
    for item in items:
        number = _number(item)
        if number is not None and 1 <= number <= shown and number - 1 not in order:
            order.append(number - 1)
    return Rerank(order=order, thought=thought, parsed=parsed)


async def rerank_relations(
    llm: LLMCaller,
    question: str,
    candidates: Sequence[Candidate],
    select: int,
    prompts_dir: Path | None,
) -> Rerank:
    """Ask the LLM which candidates help answer the question, most useful first."""
    prompt = load_prompt("query/hops/rerank", prompts_dir).format(
        question=question, relations=numbered_relations(candidates), select=select
    )
    reply = await llm.complete(prompt, stage=RERANK_STAGE, max_tokens=RERANK_MAX_TOKENS)
    return parse_rerank(reply, len(candidates))
