"""Two-hop questions composed from 2Wiki's film and director pages, for `eval retrieval`.

2Wiki ships no questions here, and MuSiQue's 50 dev questions are the only multi-hop ones we
have: a ranking change can be checked on these before it is trusted. A film's page that says
"directed by NAME", where NAME is another page's title, makes a pair; the question asks the
director's birth or death date by the film ("When was the director of the film Dark River
born?"), so the second page is found only through the first: it names the director, the
question does not. Gold: both pages. Fixed seed, so every run asks the same questions:
  .venv/bin/python benchmarks/query/composed_questions.py OUT.json [--count 100]
then, on a graph holding all of 2Wiki (`graphrag-neo4j index ../shared/data/2wiki/corpus.jsonl
--method fast --no-communities --workspace w2`):
  graphrag-neo4j eval retrieval --workspace w2 --questions OUT.json --method naive,local,ppr,hops
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

from benchmarks.scale.scale import SOURCES

SEED = 55
# "directed by NAME" ends where the name does: a comma, a full stop, a bracket or a clause.
_DIRECTED_BY = re.compile(
    r"directed by ([A-Z][\w.\-' ]+?)(?: and |,|\.| \(| starring| who| with| from| for| based"
    r"| as| in )"
)
# The life dates a person's page opens with: "(born 3 May 1950)", "(1886 – 1962)".
_LIFE = re.compile(r"\(([^()]*\d{4}[^()]*)\)")
_AFTER_YEAR = re.compile(r"(?<=\d{4})\s*[–\-;]?\s*(?=\S)")
# "19 December 1950", "November 10, 1964", "September 1952", "1917".
_DATE = re.compile(r"(?:\d{1,2} [A-Z][a-z]+ |[A-Z][a-z]+ (?:\d{1,2}, )?)?\d{4}")
_QUALIFIER = re.compile(r"\s*\([^)]*\)$")


def life_dates(text: str) -> tuple[str, str | None] | None:
    """The birth and (if given) death of a person's page, from its first bracket with a year."""
    found = _LIFE.search(text)
    if found is None:
        return None
    # A date ends with its year; the next one (after a dash or a space) is the death.
    dates = [_DATE.search(part) for part in _AFTER_YEAR.split(found.group(1))]
    if dates[0] is None:
        return None
    death = dates[1] if len(dates) > 1 else None
    return dates[0].group(0), death.group(0) if death else None


def composed(
    film: dict[str, str], director: dict[str, str], asks_death: bool
) -> dict[str, object] | None:
    """The question asking the director's birth (or death) by the film, or None when the
    director's page gives no such date."""
    dates = life_dates(director["text"])
    if dates is None:
        return None
    born, died = dates
    name = _QUALIFIER.sub("", film["title"])
    if asks_death and died is not None:
        question, answer = f"When did the director of the film {name} die?", died
    else:
        question, answer = f"When was the director of the film {name} born?", born
    return {"id": f"{film['id']}+{director['id']}", "question": question, "answer": answer,
            "answer_aliases": [], "supporting_passage_ids": [film["id"], director["id"]]}


def pairs(records: list[dict[str, str]]) -> list[tuple[dict[str, str], dict[str, str]]]:
    """(film, director) for each page saying "directed by" another page's title."""
    by_title = {record["title"]: record for record in records}
    found = []
    for record in records:
        match = _DIRECTED_BY.search(record["text"])
        name = match.group(1).strip() if match else ""
        opening = record["text"].split(". ")[0]
        # A page about a film (an actor's page says "directed by" too).
        if name in by_title and name != record["title"] and "film" in opening:
            found.append((record, by_title[name]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=100)
    args = parser.parse_args()
    with SOURCES[0].open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    found = pairs(records)
    questions: list[dict[str, object]] = []
    for film, director in random.Random(SEED).sample(found, len(found)):
        question = composed(film, director, asks_death=len(questions) % 2 == 1)
        if question is not None:
            questions.append(question)
        if len(questions) == args.count:
            break
    args.out.write_text(json.dumps(questions, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"{len(questions)} questions from {len(found)} film-director pairs"
          f" written to {args.out}")


if __name__ == "__main__":
    main()
