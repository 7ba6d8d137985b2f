"""The pairwise judge: both orders asked, so a judge that always picks a position ties."""

from __future__ import annotations

import json
from pathlib import Path

from graphrag_neo4j.evaluation.judge import CRITERIA, judge_pair, parse_verdicts
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.testing import FakeChatModel, Reply
from graphrag_neo4j.settings import Settings

QUESTIONS = [("What are the main themes?", "Greed, with detail on redemption.", "Greed."),
             ("Who changes most?", "Scrooge, in detail.", "Scrooge.")]


def _judge(reply: Reply, tmp: Path) -> tuple[LLMCaller, FakeChatModel]:
    chat = FakeChatModel(rules=[("fair judge", reply)])
    settings = Settings(cache_dir=tmp)
    return LLMCaller(chat, settings.llm, None, no_cache=True), chat


async def test_a_judge_always_choosing_the_first_position_ties(tmp_path: Path) -> None:
    llm, chat = _judge(json.dumps(dict.fromkeys(CRITERIA, 1)), tmp_path)
    result = await judge_pair(llm, "global", "naive", QUESTIONS)
    assert len(chat.calls) == 4  # two questions, two orders each
    first, swapped = chat.calls[0].prompt, chat.calls[1].prompt
    assert first.index("with detail on redemption") < first.index("-----Answer 2-----")
    assert swapped.index("with detail on redemption") > swapped.index("-----Answer 2-----")
    for criterion in CRITERIA:
        assert result.win_rate(criterion) == 50.0
        assert result.agreed[criterion] == 0


async def test_a_judge_following_the_content_wins_in_both_orders(tmp_path: Path) -> None:
    def prefer_detail(prompt: str) -> str:
        second = prompt.split("-----Answer 2-----")[1]
        winner = 2 if "detail" in second.split("-----Answer 1-----")[0] else 1
        return json.dumps({**dict.fromkeys(CRITERIA, winner), "directness": "tie"})

    llm, _ = _judge(prefer_detail, tmp_path)
    result = await judge_pair(llm, "global", "naive", QUESTIONS)
    assert result.win_rate("comprehensiveness") == 100.0
    assert result.agreed["comprehensiveness"] == 2
    assert result.win_rate("directness") == 50.0 and result.agreed["directness"] == 2
    assert result.unparsed == 0


def test_verdicts_parse_loose_replies_and_count_missing_ones() -> None:
    reply = 'Sure! {"comprehensiveness": "2", diversity: tie, "empowerment": 1}'
    assert parse_verdicts(reply) == {"comprehensiveness": "2", "diversity": "tie",
                                     "empowerment": "1", "directness": None}
