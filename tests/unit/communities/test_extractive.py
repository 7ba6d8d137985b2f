"""Extractive community titles and summaries: sentences, names, ranking, budget, hash."""

from __future__ import annotations

from graphrag_neo4j.communities.context import TokenCounter
from graphrag_neo4j.communities.extractive import (
    Member,
    NameFinder,
    Sentence,
    SentencePool,
    extract,
    split_sentences,
    summary_of,
    title_of,
    words,
)

SCROOGE = Member("s", "Scrooge", 9)
BOB = Member("b", "Bob Cratchit", 5)
TIM = Member("t", "Tiny Tim", 4)
MARLEY = Member("m", "Marley", 2)
CAROL = [SCROOGE, BOB, TIM, MARLEY]


def pool_of(members: list[Member], descriptions: dict[str, str]) -> SentencePool:
    pool = SentencePool(NameFinder((m.id, m.name) for m in members))
    for entity_id, text in descriptions.items():
        pool.add(text, [entity_id])
    return pool


def test_sentences_split_at_ends_and_lines_but_not_after_titles() -> None:
    text = 'Mr. Scrooge was cold. "Bah!" said he.\nMrs. Cratchit cooked. It was 1843.'
    assert split_sentences(text) == [
        "Mr. Scrooge was cold.", '"Bah!" said he.', "Mrs. Cratchit cooked.", "It was 1843."
    ]
    assert split_sentences("") == [] and split_sentences("  \n ") == []


def test_names_are_found_as_whole_words_only() -> None:
    finder = NameFinder([("b", "Bob Cratchit"), ("t", "Tiny Tim"), ("s", "Scrooge")])
    assert finder(words("Bob Cratchit carried Tiny Tim to Scrooge's door.")) == {"b", "t", "s"}
    assert finder(words("Bob was tiny; Timothy and Scrooged are other words.")) == set()


def test_the_title_names_the_best_connected_members() -> None:
    assert title_of(CAROL) == "Scrooge, Bob Cratchit and Tiny Tim"
    assert title_of([BOB, TIM]) == "Bob Cratchit and Tiny Tim"
    assert title_of([MARLEY]) == "Marley"


def test_the_sentences_naming_most_members_lead_and_repeats_count_once() -> None:
    pool = pool_of(CAROL, {
        "m": "Marley was dead. Scrooge and Marley were partners.",
        "s": "Scrooge paid Bob Cratchit fifteen shillings while Tiny Tim was ill.",
        "b": "Bob Cratchit is the clerk. Marley was dead.",
    })
    assert len(pool.sentences) == 4  # "Marley was dead." once, credited to both entities
    found = extract(CAROL, pool.sentences.values(), 2, 200, TokenCounter())
    assert found.title == "Scrooge, Bob Cratchit and Tiny Tim"
    assert found.summary == (
        "Scrooge paid Bob Cratchit fifteen shillings while Tiny Tim was ill."
        " Scrooge and Marley were partners."
    )
    assert found.full_content.startswith("# Scrooge, Bob Cratchit and Tiny Tim\n\n")


def test_the_summary_keeps_to_its_sentence_count_and_token_budget() -> None:
    ranked = [Sentence(f"Sentence number {i} says something.") for i in range(10)]
    count = TokenCounter()
    assert summary_of(ranked, 3, 1000, count).count("Sentence number") == 3
    assert summary_of(ranked, 10, 20, count).count("Sentence number") == 2
    long = [Sentence(" ".join(["word"] * 400) + ".")]
    cut = summary_of(long, 3, 10, count)
    assert cut.endswith(" ...") and len(cut) <= 45


def test_a_community_without_sentences_lists_its_members() -> None:
    found = extract([BOB, TIM], [], 5, 200, TokenCounter())
    assert found.summary == "Members: Bob Cratchit, Tiny Tim."


def test_the_hash_changes_with_the_members_or_the_text() -> None:
    sentences = [Sentence("Bob Cratchit loves Tiny Tim.", {"b", "t"})]
    count = TokenCounter()
    base = extract([BOB, TIM], sentences, 5, 200, count).hash
    assert extract([BOB, TIM], sentences, 5, 200, count).hash == base
    assert extract([BOB, TIM, Member("x", "Zed", 0)], sentences, 5, 200, count).hash != base
    other = [Sentence("Bob Cratchit carries Tiny Tim.", {"b", "t"})]
    assert extract([BOB, TIM], other, 5, 200, count).hash != base
