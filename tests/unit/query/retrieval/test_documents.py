"""A ranking's first k documents: more passages are asked for while passages share documents."""

from __future__ import annotations

from graphrag_neo4j.query.retrieval.documents import GROWTH, ROUNDS, first_documents


class Ranking:
    """The documents of a fixed passage ranking, recording how many passages were asked for."""

    def __init__(self, documents: list[str]) -> None:
        self.documents = documents
        self.asked: list[int] = []

    async def __call__(self, n: int) -> list[str]:
        self.asked.append(n)
        return self.documents[:n]


async def test_one_round_when_the_passages_name_k_documents() -> None:
    ranking = Ranking(["d1", "d2", "d3", "d4"])
    assert await first_documents(ranking, 3) == ["d1", "d2", "d3"]
    assert ranking.asked == [3]


async def test_more_passages_until_k_documents() -> None:
    ranking = Ranking(["d1", "d1", "d1", "d2", "d1", "d3", "d4"])
    assert await first_documents(ranking, 3) == ["d1", "d2", "d3"]
    assert ranking.asked == [3, 3 * GROWTH]


async def test_the_ranking_s_end_stops_the_growth() -> None:
    ranking = Ranking(["d1", "d1", "d2"])
    assert await first_documents(ranking, 3) == ["d1", "d2"]
    assert ranking.asked == [3, 6]  # 6 asked, 3 given: nothing more to ask


async def test_the_rounds_are_bounded() -> None:
    ranking = Ranking(["d1"] * 1000 + ["d2"])
    assert await first_documents(ranking, 2) == ["d1"]
    assert ranking.asked == [2 * GROWTH**i for i in range(ROUNDS)]
