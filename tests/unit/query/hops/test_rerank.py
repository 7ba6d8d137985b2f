"""The hops reranker: prompt, tolerant parsing of small-model replies, chosen relations."""

from __future__ import annotations

import pytest

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.query.hops.rerank import (
    Candidate,
    numbered_relations,
    parse_rerank,
    rerank_relations,
)
from graphrag_neo4j.settings import LLMSettings


def candidate(n: int, sentence: str = "") -> Candidate:
    subject, predicate, obj = (sentence or f"S{n} p{n} O{n}").split(" ", 2)
    return Candidate(f"r{n}", subject, predicate, obj, (f"c{n}",), 0.5)


@pytest.mark.parametrize(
    ("reply", "order", "parsed"),
    [
        ('{"thought_process": "t", "useful_relationships": [3, 1]}', [2, 0], True),
        ('{"thought_process": "t", "useful_relationships": ["[2] S2 p2 O2", "[4] x"]}',
         [1, 3], True),
        ('```json\n{"useful_relationships": ["3", "3", "9", 0, "x"]}\n```', [2], True),
        ('{"thought_process": "cut off", "useful_relationships": [4, 2', [3, 1], True),
        ('{"useful_relationships": ["[1] born in 1122, in Paris", "[5] y"], "more": 1',
         [0, 4], True),
        ("I think 2 and 3.", [], False),
        ('{"thought_process": "Mara wrote it [2], she studied at [5] and [2] again, [5', [1, 4],
         False),
        ('{"thought_process": "nothing helps", "useful_relationships": []}', [], True),
    ],
)
def test_parse_rerank(reply: str, order: list[int], parsed: bool) -> None:
    result = parse_rerank(reply, shown=5)
    assert result.order == order and result.parsed is parsed


def test_relations_are_numbered_from_one_as_sentences() -> None:
    lines = numbered_relations([candidate(1, "Euler studied under Johann"), candidate(2)])
    assert lines == "[1] Euler studied under Johann\n[2] S2 p2 O2"


async def test_rerank_prompt_holds_question_facts_and_budget() -> None:
    model = FakeChatModel(rules=[("You pick facts", '{"useful_relationships": [2]}')])
    caller = LLMCaller(model, LLMSettings(), cache_dir=None)
    result = await rerank_relations(caller, "Who taught Euler?", [candidate(1), candidate(2)], 4,
                                    None)
    assert result.order == [1]
    prompt = model.calls[0].prompt
    assert "choose up to 4 useful facts" in prompt
    assert prompt.rstrip().endswith("Question: Who taught Euler?\nFacts:\n[1] S1 p1 O1\n"
                                     "[2] S2 p2 O2\nReply:")
    assert '"useful_relationships": [2, 6, 4]' in prompt  # the one-shot example, unescaped
