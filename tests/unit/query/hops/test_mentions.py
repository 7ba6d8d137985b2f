"""Question mentions for hops: capitalised phrases, the NER reply parser and the merge."""

from __future__ import annotations

import pytest

from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.query.hops.mentions import (
    capitalised_mentions,
    llm_mentions,
    merge_mentions,
    parse_names,
)
from graphrag_neo4j.settings import LLMSettings


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What contribution did the son of Euler's teacher make?", ["Euler"]),
        ("What county shares a border with the county in which Johnnycake, West Virginia is"
         " located?", ["Johnnycake", "West Virginia"]),
        ("who are the democratic candidates running for governor in the state the Battle of"
         " Mine Creek was fought?", ["Battle of Mine Creek"]),
        ("What was Mr. Smith's first name, in the film where he goes to the city?", ["Mr. Smith"]),
        ("Who is the spouse of the director of Jump for Glory?", ["Jump for Glory"]),
        ("In the country that Jiménez is a part, what percentage?", ["Jiménez"]),
        ("What is the population ranking of the city in the country that passed the Judiciary"
         " Act of 1869?", ["Judiciary Act of 1869"]),
        ("What is the continental limit of the continent with the lowest temperature?", []),
    ],
)
def test_capitalised_mentions(question: str, expected: list[str]) -> None:
    assert capitalised_mentions(question) == expected


def test_capitalised_mentions_are_distinct_and_skip_opening_words() -> None:
    question = "When did the Admiral Twin open where the Admiral Twin is? In Tulsa."
    assert capitalised_mentions(question) == ["Admiral Twin", "Tulsa"]


@pytest.mark.parametrize(
    ("reply", "names"),
    [
        ('["Euler", "Basel"]', ["Euler", "Basel"]),
        ('Names: ["Euler",  "Johann   Bernoulli", "Euler"]\nDone.', ["Euler", "Johann Bernoulli"]),
        ('["Euler", "Basel"', []),
        ('["Euler", "Basel",]', ["Euler", "Basel"]),
        ("[]", []),
        ("no list here", []),
        ('[{"name": "Euler"}, "Basel"]', ["Basel"]),
    ],
)
def test_parse_names(reply: str, names: list[str]) -> None:
    assert parse_names(reply) == names


def test_merge_drops_invented_names_and_adds_missed_capitalised_ones() -> None:
    question = "Which river runs through the town where Ingrid Solberg met the Nordvik Rail boss?"
    merged = merge_mentions(question, ["Nordvik rail", "Winter Lanterns", "river", "the town"],
                            ["Ingrid Solberg", "Nordvik Rail"])
    assert merged == ["Nordvik rail", "Ingrid Solberg"]


async def test_llm_mentions_use_the_prompt_and_fall_back_to_capitalised() -> None:
    model = FakeChatModel(rules=[("List the proper names", "I cannot tell.")])
    caller = LLMCaller(model, LLMSettings(), cache_dir=None)
    question = "What contribution did the son of Euler's teacher make?"
    assert await llm_mentions(caller, question, None) == ["Euler"]
    prompt = model.calls[0].prompt
    assert prompt.rstrip().endswith(f"Question: {question}\nNames:")
    assert caller.usage.stages()["hops_ner"].calls == 1
