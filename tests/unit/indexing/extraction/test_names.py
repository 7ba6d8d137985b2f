"""What may name an entity: the junk rule every extraction method's names pass."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline
from graphrag_neo4j.indexing.extraction.names import junk_reason


@pytest.mark.parametrize(("name", "reason"), [
    ("http://www.pgdp.net A CHRISTMAS CAROL", "a URL"),
    ("gutenberg.org", "a URL"),
    ("Illustration] BY CHARLES DICKENS [Illustration]", "code or markup"),
    ("Optional[dict[str", "code or markup"),
    ("list(set(entity['name", "code or markup"),
    ("export NEO4J_PASSWORD", "code or markup"),  # alone, the identifier is a name (below)
    ("$HOME", "code or markup"),
    ("a | b", "code or markup"),
    ("commission composed of 12 bishops and cardinals", "a phrase of more than 6 words"),
    ("这是一个很长的中文句子" * 6, "longer than 60 characters without a space"),
    ("Then he went home at last.", "a sentence"),
    ("She married him in Paris.", "a sentence"),
    ("The answer to that was no.", "a sentence"),  # "No." abbreviates nothing at the end
    ("FULL LICENSE THE FULL PROJECT GUTENBERG LICENSE", "a heading or notice in capitals"),
    ("None", "a placeholder"),
    ("n/a", "a placeholder"),
    ("1.355", "no letters (a number or symbols)"),
    ("in 1963", "a phrase of time or place"),
])
def test_what_names_nothing_is_refused_with_its_reason(name: str, reason: str) -> None:
    assert junk_reason(name, max_words=6) == reason


@pytest.mark.parametrize("name", [
    "NEO4J_PASSWORD", "wal_level", "pg_dump", "gc.auto", "--aggressive",
    "Ebenezer Scrooge", "Ghost of Christmas Yet to Come", "Bharatiya Janata Party (BJP)",
    "NATO", "U.S.", "St. Paul", "Co-operative", "Harry Potter and the Philosopher's Stone",
    "東京", "Москва", "MISSION TO DULCE BASE", "Operation: Dulce", "Noneland",
    "Organisation for Economic Co-operation and Development (OECD)",
    "The Good, the Bad and the Ugly", "Whatever Happened to Benny Santini?",
    "Alexander and the Terrible, Horrible, No Good, Very Bad Day",
    "Terms of Use and Redistributing Project Gutenberg",
    "Walfredo de los Reyes Sr.", "Live and Die in L.A.", "William Collins, Sons & Co. Ltd.",
    "-58 Degrees – Exploring Siberia on Skies", "Star Wars: Episode IV — A New Hope",
    "Ana García de los Ríos y Caller", "Hard Rock Hotel & Casino Atlantic City",
])
def test_names_stay_names(name: str) -> None:
    assert junk_reason(name, max_words=6) is None


PERSON_OR_PLACE = ("PERSON", "GPE", "LOC", "FAC")


def test_no_person_or_place_of_the_shared_data_is_refused(shared_data: Path) -> None:
    """Every title of the 2Wiki and MuSiQue passages (7,882 Wikipedia entities) goes through
    the rule; of those it refuses, none may be a person or a place by the shipped model."""
    titles = {json.loads(line)["title"] for corpus in ("2wiki", "musique")
              for line in (shared_data / corpus / "corpus.jsonl").open(encoding="utf-8")}
    refused = [title for title in sorted(titles) if junk_reason(title, max_words=6)]
    # The name without its Wikipedia qualifier: "John Taylor (bishop of Sodor and Man)".
    names = [re.sub(r"\s*\([^()]*\)", "", title) for title in refused]
    people_and_places = [
        title for title, name, doc in zip(refused, names, load_pipeline().pipe(names),
                                          strict=True)
        if any(e.text == name and e.label_ in PERSON_OR_PLACE for e in doc.ents)]
    assert len(titles) > 7000
    assert people_and_places == []
