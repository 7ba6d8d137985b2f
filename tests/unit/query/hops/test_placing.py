"""How a round's passages join hops' ranking: the first stay, the placed come next, none lost."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from graphrag_neo4j.query.hops.placing import joined_order, placed_passages


def test_the_joined_order_keeps_the_first_and_places_the_inserted_after_them() -> None:
    first, second = ["a", "b", "c", "d"], ["e", "a", "f", "g"]
    assert joined_order(first, second, keep=2, insert=2) == ["a", "b", "e", "f", "c", "d"]
    assert joined_order(first, second, keep=0, insert=1) == ["e", "a", "b", "c", "d"]
    assert joined_order(first, second, keep=2, insert=0) == first


@given(st.lists(st.integers(0, 30), unique=True), st.lists(st.integers(0, 30), unique=True),
       st.integers(0, 5), st.integers(0, 5))
def test_the_joined_order_loses_nothing_and_repeats_nothing(
    first: list[int], second: list[int], keep: int, insert: int
) -> None:
    joined = [int(x) for x in joined_order([str(x) for x in first], [str(x) for x in second],
                                           keep, insert)]
    assert len(joined) == len(set(joined))
    assert joined[: min(keep, len(first))] == first[:keep]
    added = [int(x) for x in placed_passages([str(x) for x in first],
                                             [str(x) for x in second], keep, insert)]
    assert added == [x for x in second if x not in first[:keep]][:insert]
    assert set(joined) == set(first) | set(added)
    # The first ranking's passages the follow-up did not move keep their order.
    assert [x for x in joined if x not in added] == [x for x in first if x not in added]
