"""The answer check: whether an answer can answer its question at all (not the question's own
words back, and a date or a number when the question asks when or how many). Text rules only,
no model; the note it leaves when it cannot."""

from __future__ import annotations

import re

from graphrag_neo4j.citations import strip_citations
from graphrag_neo4j.communities.extractive import words
from graphrag_neo4j.query.base import Answer, Note, NoteKind

ANSWER_CHECK = "Answer check:"

_ARTICLES = {"a", "an", "the"}
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
# A reply saying it cannot answer is honest, not a misfit: it is left alone.
_NO_ANSWER = re.compile(
    r"\b(?:do(?:es)?\s*n[o']t|can\s*n[o']t|cannot|unable to|no information|not (?:enough|"
    r"mentioned|stated|given|found|in the))\b", re.IGNORECASE)
# A choice ("Which came first, A or B?") is answered by one of the question's own names.
_CHOICE = re.compile(r"\bor\b", re.IGNORECASE)
# English questions asking for a time or an amount, by their opening words or a final "when?".
_ASKS_WHEN = re.compile(
    r"^\s*(?:when|(?:in|on|at|by)?\s*(?:what|which)\s+(?:year|date|day|month|decade|century|"
    r"time)s?)\b|\bwhen\s*\?\s*$", re.IGNORECASE)
_ASKS_AMOUNT = re.compile(
    r"^\s*(?:how\s+(?:many|much|long|old|far|tall|big|large|high|deep|often)|(?:what|which)"
    r"\s+(?:percentage|percent|proportion|share|number|amount))\b", re.IGNORECASE)
# Not "no": "there is no doubt" is not a count.
_NUMBER_WORDS = (
    r"zero|none|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|trillions?|dozens?|half|"
    r"once|twice|single|double|triple|several|few|many")
# Words a time is told by without a digit: "in the spring", "during the reign of Louis XIV",
# "at the end of the book".
_TIME_WORDS = (
    r"january|february|march|april|may|june|july|august|september|october|november|december|"
    r"spring|summer|autumn|fall|winter|morning|afternoon|evening|night|noon|midnight|dawn|"
    r"dusk|christmas|eve|century|centuries|decades?|years?|months?|weeks?|days?|hours?|era|"
    r"age|period|reign|dynasty|war|revolution|bc|bce|ad|ce|today|yesterday|tomorrow|ago|"
    r"before|after|during|since|until|when|while|once|early|late|mid|first|second|third|"
    r"last|next|never|always|end|beginning|start|then|now|later|soon|recently|moment|times?|"
    r"ever|finally|eventually|immediately")
_HAS_NUMBER = re.compile(rf"\d|\b(?:{_NUMBER_WORDS})\b", re.IGNORECASE)
_HAS_TIME = re.compile(rf"\d|\b(?:{_NUMBER_WORDS}|{_TIME_WORDS})\b", re.IGNORECASE)

REPEATS_QUESTION = "only repeats words of the question, which asks for something it does not name"


def _words(text: str) -> list[str]:
    return [w for w in words(text) if w not in _ARTICLES]


def _squashed(text: str) -> str:
    """Letters and digits only, lower case: how a text written without spaces is compared."""
    return "".join(words(text))


def repeats_question(answer: str, question: str) -> bool:
    """Whether the answer is only words the question already says ("US" for "the debt load
    for the US carried by ..."); a choice question's answer is one of its own names."""
    if _CHOICE.search(question):
        return False
    said = _words(answer)
    if not said:
        return False
    if _UNSPACED.search(answer):
        return _squashed(answer) in _squashed(question)
    asked = set(_words(question))
    return all(word in asked for word in said)


def missing_kind(answer: str, question: str) -> str | None:
    """What the question asks for that the answer lacks: "date or time" for a when-question
    answered without one ("Tulsa"), "number" for a how-many one; None when it has it."""
    if _ASKS_WHEN.search(question) and not _HAS_TIME.search(answer):
        return "date or time"
    if _ASKS_AMOUNT.search(question) and not _HAS_NUMBER.search(answer):
        return "number"
    return None


def misfit(answer: str, question: str) -> str | None:
    """Why the answer cannot answer the question, as a clause ("gives no date or time, which
    the question asks for"), or None when it may; a reply saying it does not know may."""
    text = " ".join(strip_citations(answer).split()).strip(" .")
    if not text or _NO_ANSWER.search(text):
        return None
    if repeats_question(text, question):
        return REPEATS_QUESTION
    wanted = missing_kind(text, question)
    return None if wanted is None else f"gives no {wanted}, which the question asks for"


def checked_fit(answer: Answer, question: str, mode: str) -> Answer:
    """The answer checked as `mode` says (flag or off): `misfit` set and a note when its text
    cannot answer the question."""
    if mode == "off":
        return answer
    problem = misfit(answer.text, question)
    if problem is not None:
        answer.misfit = problem
        answer.notes.append(Note(
            NoteKind.ANSWER_CHECK,
            f"{ANSWER_CHECK} the answer {problem}; it may name a step on the way rather than the"
            " answer.",
        ))
    return answer
