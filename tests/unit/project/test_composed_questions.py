"""The composed two-hop questions: a film's page and its director's, the date asked by the film."""

from __future__ import annotations

from benchmarks.query.composed_questions import composed, life_dates, pairs

FILM = {"id": "f1", "title": "Dark River (2017 film)",
        "text": "Dark River is a 2017 British drama film directed by Clio Barnard. It stars Ruth."}
DIRECTOR = {"id": "p1", "title": "Clio Barnard",
            "text": "Clio Barnard (born 1965) is a British artist and filmmaker."}
ACTOR = {"id": "p2", "title": "Ruth Wilson",
         "text": "Ruth Wilson (born 13 January 1982) is an actress directed by Clio Barnard."}


def test_a_film_page_naming_another_pages_title_as_director_makes_a_pair() -> None:
    # The actor's page says "directed by" too, but it is no film's page.
    assert pairs([FILM, DIRECTOR, ACTOR]) == [(FILM, DIRECTOR)]
    assert pairs([FILM, ACTOR]) == []  # the director has no page


def test_life_dates_read_the_first_bracket_with_a_year() -> None:
    assert life_dates(DIRECTOR["text"]) == ("1965", None)
    assert life_dates("Frank Lloyd (2 February 1886 – 10 August 1960) was a director.") == (
        "2 February 1886", "10 August 1960")
    assert life_dates("Wilfred Lucas (January 30, 1871 December 13, 1940) was an actor.") == (
        "January 30, 1871", "December 13, 1940")
    assert life_dates("A director (film) with no dates.") is None


def test_the_question_names_the_film_without_its_qualifier_and_asks_a_date_its_page_gives() -> None:
    question = composed(FILM, DIRECTOR, asks_death=True)  # no death date: the birth is asked
    assert question == {
        "id": "f1+p1", "question": "When was the director of the film Dark River born?",
        "answer": "1965", "answer_aliases": [], "supporting_passage_ids": ["f1", "p1"]}
    assert composed(FILM, {**DIRECTOR, "text": "Clio Barnard is an artist."}, False) is None
